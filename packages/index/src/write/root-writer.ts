import { documentValue } from "../decode.js";
import { IndexFormatError } from "../errors.js";
import { parsePackageRoot } from "../parse-root.js";
import type { Description, Owner, PackageRoot } from "../types.js";
import { encodeIndexJson, type JsonInput } from "./index-json.js";
import { type OrderedJson, parseOrderedJson } from "./ordered-json.js";
import { isListableTag, isReservedTag } from "./reserved-tags.js";
import { createdDate, observedTimestamp } from "./timestamps.js";

/** A package root as the index holds it: its bytes, validated, and its key order as written. */
export interface CommittedRoot {
  bytes: Uint8Array;
  root: PackageRoot;
  /** The document with every object's keys in written order. */
  ordered: Map<string, OrderedJson>;
}

/** Reads a root file (exit 65 naming `where` when it does not follow root.schema.json). */
export function readCommittedRoot(
  bytes: Uint8Array,
  where: string,
  options: { nameSegments?: number } = {},
): CommittedRoot {
  const root = parsePackageRoot(documentValue(bytes, where), where, options);
  const ordered = parseOrderedJson(Buffer.from(bytes).toString("utf8"));
  if (!(ordered instanceof Map)) throw new IndexFormatError(where, "$", "not an object");
  return { bytes, root, ordered };
}

/** One tag as the registry answers it now: the digest of the image index it resolves to. */
export interface ObservedTag {
  tag: string;
  content: string;
}

/** The governance fields of a package the index does not hold yet (all human-set afterwards). */
export interface NewRootFields {
  /** `<label>/<ns>/<pkg>` */
  name: string;
  /** `oci://<host>/<path>` */
  repository: string;
  owners: Owner[];
}

export interface RootUpdate {
  /** The root as committed; undefined for a package the index does not hold yet. */
  committed?: CommittedRoot;
  /** Required when there is no committed root. */
  newRoot?: NewRootFields;
  /** `replace`: the tags become exactly the observed ones; `merge`: observed tags are added to (or
   *  re-observed among) the committed ones, none removed. */
  mode: "replace" | "merge";
  observed: readonly ObservedTag[];
  /** The description as observed now (bot-owned: replaces the committed one); null for none. */
  desc: Description | null;
  /** When tags observed now with new content are stamped `observed`; a new root's `created` day. */
  now: Date;
  /** The variant a tag that reads as a version carries (`slim` for `slim-1.2.3`), else undefined.
   *  When given, `variants` is derived from the tags (left out when there are none); when not, a
   *  committed `variants` is kept as it is. */
  variantOf?: (tag: string) => string | undefined;
  nameSegments?: number;
}

export interface RootResult {
  root: PackageRoot;
  bytes: Uint8Array;
  /** Observed tags listed (added, moved or confirmed), in order, reserved ones left out. */
  tags: string[];
  /** Tags added, or whose content moved. */
  changedTags: string[];
  /** Reserved tags among the observed ones, left out. */
  reservedTagsDropped: string[];
}

const DESC_KEYS = ["digest", "title", "description", "keywords", "readme", "logo"] as const;

function descValue(desc: Description | null): JsonInput {
  if (desc === null) return null;
  const ordered = new Map<string, JsonInput>();
  for (const key of DESC_KEYS) {
    const value = desc[key];
    if (value !== undefined) ordered.set(key, value as JsonInput);
  }
  return ordered;
}

function newRootDocument(fields: NewRootFields, now: Date): Map<string, OrderedJson> {
  return new Map<string, OrderedJson>([
    ["name", fields.name],
    ["repository", fields.repository],
    [
      "owners",
      fields.owners.map(
        (o) =>
          new Map<string, OrderedJson>([
            ["github", o.github],
            ["github_id", o.github_id],
          ]),
      ),
    ],
    ["status", "active"],
    ["deprecated_message", null],
    ["created", createdDate(now)],
    ["desc", null],
    ["tags", new Map()],
  ]);
}

/** `doc` with `key` set to `value`: in place when present, else just before `before`. */
function setMember(
  doc: Map<string, JsonInput>,
  key: string,
  value: JsonInput,
  before: string,
): Map<string, JsonInput> {
  if (doc.has(key) || !doc.has(before)) return doc.set(key, value);
  const out = new Map<string, JsonInput>();
  for (const [k, v] of doc) {
    if (k === before) out.set(key, value);
    out.set(k, v);
  }
  return out;
}

function contentOf(entry: OrderedJson | undefined): string | undefined {
  const content = entry instanceof Map ? entry.get("content") : undefined;
  return typeof content === "string" ? content : undefined;
}

/**
 * The package root after one announce, and its bytes: the committed root with `desc`, `tags` and
 * (with `variantOf`) `variants` regenerated, every other member (the governance fields, `source`,
 * any yank marker) kept as written and in its place. A tag whose content did not move keeps its
 * entry untouched (its `observed` time too), so the same inputs give the same bytes. Reserved tags
 * are never listed. The result is checked against root.schema.json before it is returned.
 */
export function buildPackageRoot(update: RootUpdate): RootResult {
  const base =
    update.committed?.ordered ??
    (update.newRoot === undefined ? undefined : newRootDocument(update.newRoot, update.now));
  if (base === undefined) throw new TypeError("buildPackageRoot: neither a committed root nor newRoot");
  const committedTags = base.get("tags");
  const before = committedTags instanceof Map ? committedTags : new Map<string, OrderedJson>();

  const reservedTagsDropped: string[] = [];
  const observed = new Map<string, string>();
  for (const { tag, content } of update.observed) {
    if (isReservedTag(tag)) {
      if (!reservedTagsDropped.includes(tag)) reservedTagsDropped.push(tag);
    } else if (!isListableTag(tag)) {
      throw new RangeError(`not an OCI tag: ${JSON.stringify(tag)}`);
    } else {
      observed.set(tag, content);
    }
  }

  const observedAt = observedTimestamp(update.now);
  const changedTags: string[] = [];
  const entryFor = (tag: string, content: string): OrderedJson => {
    const old = before.get(tag);
    if (old instanceof Map && contentOf(old) === content) return old;
    changedTags.push(tag);
    const entry = new Map<string, OrderedJson>([
      ["content", content],
      ["observed", observedAt],
    ]);
    const yanked = old instanceof Map ? old.get("yanked") : undefined;
    if (yanked !== undefined) entry.set("yanked", yanked);
    return entry;
  };

  const tags = new Map<string, OrderedJson>();
  for (const [tag, entry] of before) {
    if (isReservedTag(tag)) continue;
    const content = observed.get(tag);
    if (content !== undefined) tags.set(tag, entryFor(tag, content));
    else if (update.mode === "merge") tags.set(tag, entry);
  }
  for (const [tag, content] of observed) if (!tags.has(tag)) tags.set(tag, entryFor(tag, content));

  let doc = new Map<string, JsonInput>(base as Map<string, JsonInput>);
  doc.set("desc", descValue(update.desc));
  doc.set("tags", tags);
  if (update.variantOf !== undefined) {
    const variants = new Set<string>();
    for (const tag of tags.keys()) {
      const variant = update.variantOf(tag);
      if (variant !== undefined) variants.add(variant);
    }
    if (variants.size === 0) doc.delete("variants");
    else doc = setMember(doc, "variants", [...variants].sort(), "tags");
  }

  const bytes = encodeIndexJson(doc);
  const root = parsePackageRoot(JSON.parse(Buffer.from(bytes).toString("utf8")), "the new package root", {
    nameSegments: update.nameSegments,
  });
  return { root, bytes, tags: [...observed.keys()], changedTags, reservedTagsDropped };
}
