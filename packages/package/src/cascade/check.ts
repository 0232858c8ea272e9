import { parseManifestDocument, type TargetReader } from "@pkg/oci";
import pLimit from "p-limit";
import { parseTag } from "../version/tags.js";
import {
  type AliasRow,
  type AuditedAlias,
  auditCascade,
  type FoldOptions,
  type TagContent,
} from "./audit.js";

/** Registry reads in flight at once. */
const READ_CONCURRENCY = 8;

export interface CascadeCheckReport {
  repository: string;
  /** Leaf versions found, across every variant. */
  leaves: number;
  /** The leaf versions left out of the fold as incomplete, by exact tag; absent when none. */
  held_out?: string[];
  /** No row other than `ok`. */
  clean: boolean;
  /** Rows other than `ok`. */
  findings: number;
  /** Findings a repair refuses (each row says why). */
  unrepairable: number;
  rows: AliasRow[];
}

export interface CascadeCheck {
  report: CascadeCheckReport;
  aliases: AuditedAlias[];
}

const isVersionTag = (tag: string) => {
  const kind = parseTag(tag).kind;
  return kind === "primary" || kind === "exact" || kind === "rolling";
};

/**
 * Every tag of the version grammar and what it holds: one listing, then one read per tag. A
 * repository that does not exist is exit 65; a tag gone since the listing is left out.
 */
export async function readVersionTags(target: TargetReader): Promise<Map<string, TagContent>> {
  const tags = (await target.listTags({ ifMissing: "error" })).filter(isVersionTag).sort();
  const limit = pLimit(READ_CONCURRENCY);
  const read = await Promise.all(
    tags.map((tag) =>
      limit(async () => {
        const stored = await target.fetchManifest(tag);
        if (!stored) return undefined;
        const doc = parseManifestDocument(stored.bytes, `${target.displayName}:${tag}`);
        const content: TagContent =
          doc.kind === "index"
            ? { digest: stored.descriptor.digest, index: doc.index }
            : { digest: stored.descriptor.digest };
        return [tag, content] as const;
      }),
    ),
  );
  return new Map(read.filter((entry) => entry !== undefined));
}

/**
 * `pkg package cascade check`: reads the repository (nothing is written) and audits every rolling
 * tag against the fold of the leaf versions (see `auditCascade`). A finding whose expected
 * manifests the repository lacks is marked unrepairable (`child-manifest-missing`). Versions
 * `options.incomplete` names are left out of the fold.
 */
export async function checkCascade(target: TargetReader, options: FoldOptions = {}): Promise<CascadeCheck> {
  const audit = auditCascade(await readVersionTags(target), options);
  const limit = pLimit(READ_CONCURRENCY);
  const present = new Map<string, Promise<boolean>>();
  const exists = (digest: string) => {
    let pending = present.get(digest);
    if (pending === undefined) {
      pending = limit(async () => (await target.fetchManifest(digest)) !== undefined);
      present.set(digest, pending);
    }
    return pending;
  };
  await Promise.all(
    audit.aliases.map(async ({ row, expected }) => {
      if (row.status === "ok" || row.unrepairable) return;
      const lacking: string[] = [];
      for (const entry of expected) {
        if (!(await exists(entry.digest))) {
          const finding = row.platforms.find((p) => p.expected?.digest === entry.digest);
          lacking.push(
            `${finding?.platform ?? "?"} of ${finding?.expected?.version ?? "?"} (${entry.digest})`,
          );
        }
      }
      if (lacking.length > 0) {
        row.unrepairable = {
          reason: "child-manifest-missing",
          detail: `the repository lacks the manifest of ${lacking.join(", ")}: re-publish that version`,
        };
      }
    }),
  );
  const rows = audit.aliases.map((a) => a.row);
  const findings = rows.filter((r) => r.status !== "ok").length;
  return {
    report: {
      repository: target.displayName,
      leaves: audit.leaves,
      ...(audit.heldOut.length === 0 ? {} : { held_out: audit.heldOut }),
      clean: findings === 0,
      findings,
      unrepairable: rows.filter((r) => r.unrepairable !== undefined).length,
      rows,
    },
    aliases: audit.aliases,
  };
}
