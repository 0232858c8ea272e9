import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import type { TargetReader } from "@pkg/oci";
import { parseReference, parseRepositoryReference } from "@pkg/oci/documents";

/**
 * Where packages come from: registries (each identifier names its own), or one OCI image layout
 * root (`--layout DIR`), in which every identifier, dependencies' included, names a repository
 * (a registry host in it is ignored).
 */
export type PackageSource = { kind: "registry" } | { kind: "layout"; root: string };

/** An identifier opened in a source: the repository to read, what it names, and where its tag is remembered. */
export interface SourceReference {
  /** For messages: the repository as its target names itself (`host/ns/tool`, `layout:/dir/ns/tool`). */
  displayName: string;
  /**
   * The repository to read, opened on the first call (the same one after): a registry's client and
   * its HTTP stack load only once something is to be fetched, never to run what the store holds.
   */
  target(): Promise<TargetReader>;
  tag?: string;
  digest?: string;
  /** The path of the tag's ref file under `refs/`: source, repository path, `_tags`, tag. */
  refSegments?: string[];
}

/** Opens `identifier` (`REGISTRY/REPO[:TAG][@DIGEST]`, or `REPO[:TAG][@DIGEST]` in a layout); exit 64 when malformed. */
export function openInSource(source: PackageSource, identifier: string): SourceReference {
  const layoutRoot = source.kind === "layout" ? resolve(source.root) : undefined;
  // parsed here, as `openReference` parses it, so a malformed identifier fails before anything is read
  const reference =
    layoutRoot === undefined ? parseReference(identifier) : parseRepositoryReference(identifier);
  const origin =
    layoutRoot === undefined
      ? encodeURIComponent(reference.registry ?? "")
      : `layout-${createHash("sha256").update(layoutRoot).digest("hex").slice(0, 16)}`;
  let opening: Promise<TargetReader> | undefined;
  const opened: SourceReference = {
    displayName:
      layoutRoot === undefined
        ? `${reference.registry}/${reference.repository}`
        : `layout:${join(layoutRoot, reference.repository)}`,
    target: () => {
      opening ??= import("../cli/target.js").then((m) => m.openReference(identifier, layoutRoot).target);
      return opening;
    },
  };
  if (reference.digest !== undefined) opened.digest = reference.digest;
  const tag = reference.tag ?? (reference.digest === undefined ? "latest" : undefined);
  if (tag !== undefined) {
    opened.tag = tag;
    // `_tags` is no repository component, so the tag files of `a/b` never meet repository `a/b/1.0`
    opened.refSegments = [origin, ...reference.repository.split("/"), "_tags", tag];
  }
  return opened;
}
