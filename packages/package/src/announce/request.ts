import { readFile } from "node:fs/promises";
import { usageError } from "@pkg/common";
import { isSafePackagePath, isValidLabel, type Owner } from "@pkg/index";
import { isListableTag, isReservedTag } from "@pkg/index/write";
import { parseReference, type TargetReader } from "@pkg/oci";

/** Which tags an announce observes. */
export type TagMode =
  /** Exactly these: they replace the curated set. */
  | { kind: "tags"; tags: string[] }
  /** These, added to the committed ones (`--tags-file`). */
  | { kind: "add"; tags: string[] }
  /** Every tag the repository holds, added to the committed ones. */
  | { kind: "from-registry" }
  /** The committed tags, looked at again; none added. */
  | { kind: "refresh" };

export interface AnnounceRequest {
  /** `<ns>/<pkg>` */
  package: string;
  mode: TagMode;
  /** `oci://<host>/<path>`: the repository, where the index does not name it yet (when it does,
   *  this must be the same one). See `repositoryUri`. */
  repository?: string;
  /** Reads tags and the description from this OCI image layout root instead of the registry. */
  layout?: string;
  /** The package's source, when the caller has it open already (a registry target with its own
   *  options, a memory store in tests); otherwise the registry or layout is opened here. */
  source?: TargetReader;
  /** The first segment of the package's name, for a package the index does not hold yet; by
   *  default the label the index's other packages carry. */
  label?: string;
  /** Owners of a package the index does not hold yet (the root needs at least one). */
  owners?: Owner[];
  /** The time new observations are stamped with; now by default. */
  now?: Date;
  /** Computes the change against the index as committed and reports it; writes and opens nothing. */
  dryRun?: boolean;
  signal?: AbortSignal;
}

const OWNER = /^([a-zA-Z\d](?:[a-zA-Z\d]|-(?=[a-zA-Z\d])){0,38}):([1-9][0-9]{0,15})$/;
/** The host part root.schema.json allows in `repository`: lowercase, optional port. */
const URI_HOST = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?$/;

/** `<ns>/<pkg>`, checked (exit 64 naming the option). */
export function checkPackagePath(path: string, option = "--package"): string {
  if (!isSafePackagePath(path)) {
    throw usageError(
      `${option} ${JSON.stringify(path)}: expected NAMESPACE/PACKAGE, lowercase letters and digits separated by ".", "_" or "-"`,
    );
  }
  return path;
}

/** Splits a tag list (commas and newlines), trims and de-duplicates it; a tag the index cannot
 *  list (a reserved `__pkg.*` or digest-shaped tag, or not a tag at all) is exit 64. */
export function parseTagList(text: string, what: string): string[] {
  const tags = [
    ...new Set(
      text
        .split(/[,\n\r]/)
        .map((t) => t.trim())
        .filter((t) => t !== ""),
    ),
  ];
  for (const tag of tags) {
    if (isReservedTag(tag)) throw usageError(`${what}: ${tag} is a reserved tag; the index never lists it`);
    if (!isListableTag(tag)) throw usageError(`${what}: ${JSON.stringify(tag)} is not a valid tag`);
  }
  return tags;
}

/** The tags of a `--tags-file` (comma or newline separated). */
export async function readTagsFile(path: string): Promise<string[]> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw usageError(`--tags-file ${path}: cannot read (${error.code ?? error.message})`);
  });
  return parseTagList(text, `--tags-file ${path}`);
}

/** `LOGIN:ID` (a GitHub login and its numeric id). */
export function parseOwner(text: string): Owner {
  const match = OWNER.exec(text);
  if (!match) throw usageError(`--owner ${JSON.stringify(text)}: expected LOGIN:ID, e.g. alice:1234567`);
  return { github: match[1] as string, github_id: Number(match[2]) };
}

export function checkLabel(label: string): string {
  if (!isValidLabel(label))
    throw usageError(`--label ${JSON.stringify(label)}: expected a lowercase DNS-like name`);
  return label;
}

/** `REGISTRY/REPOSITORY` as the index writes it: `oci://<host>/<path>` (exit 64 when it is not one). */
export function repositoryUri(text: string): string {
  const reference = parseReference(text);
  if (reference.tag !== undefined || reference.digest !== undefined) {
    throw usageError(`--repository ${text}: name a repository, without a tag or digest`);
  }
  if (!URI_HOST.test(reference.registry)) {
    throw usageError(`--repository ${text}: the index names registries by lowercase host[:port]`);
  }
  return `oci://${reference.registry}/${reference.repository}`;
}
