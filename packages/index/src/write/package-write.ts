import { isUtf8 } from "node:buffer";
import { documentValue } from "../decode.js";
import { sha256Of } from "../digest.js";
import { IndexFormatError } from "../errors.js";
import { DEFAULT_NAME_SEGMENTS, isSafePackagePath, splitPackageName } from "../grammar.js";
import { parseCatalogIndex } from "../parse-catalog-index.js";
import { parseIndexConfig } from "../parse-config.js";
import { parseImageIndex } from "../parse-image-index.js";
import { objectFilePath, rootFilePath } from "../paths.js";
import { IMAGE_INDEX_MAX_BYTES, LOGO_MAX_BYTES, README_MAX_BYTES } from "../read/limits.js";
import type { Description, IndexConfig, PackageRoot } from "../types.js";
import { encodeIndexConfig, newIndexConfig, updateCatalogIndex } from "./catalog-writer.js";
import {
  buildPackageRoot,
  type CommittedRoot,
  type NewRootFields,
  type RootUpdate,
  readCommittedRoot,
} from "./root-writer.js";

/** Reads a file of the index as its holder has it now (`/`-separated, relative to the index
 *  root); undefined when absent. */
export type ReadIndexFile = (path: string) => Promise<Uint8Array | undefined>;

export const CONFIG_PATH = "config.json";
export const CATALOG_INDEX_PATH = "c/index.json";

/** What an index holds now, as far as one package's write depends on it. */
export interface IndexState {
  pkgPath: string;
  nameSegments: number;
  /** `/config.json` when the index has one. */
  config?: IndexConfig;
  /** The package's root when the index has it. */
  committed?: CommittedRoot;
  /** Whether the holder keeps `/config.json` and `/c/index.json` itself (a local directory does; an
   *  index repository renders them at deploy). */
  keepsCatalogIndex: boolean;
  /** `/c/index.json` as held, when kept and present. */
  catalogIndex?: Uint8Array;
  /** The packages `/c/index.json` lists (checked against c-index.schema.json), when read. */
  catalogPackages?: Record<string, string>;
}

/** Reads the state one package's write starts from: config.json, the package's root, and (when the
 *  holder keeps it) c/index.json. A document that breaks its schema is exit 65 naming it. */
export async function readIndexState(
  read: ReadIndexFile,
  pkgPath: string,
  options: { keepsCatalogIndex: boolean },
): Promise<IndexState> {
  const configBytes = await read(CONFIG_PATH);
  const config = configBytes === undefined ? undefined : parseIndexConfig(configBytes, CONFIG_PATH);
  const nameSegments = config?.name_segments ?? DEFAULT_NAME_SEGMENTS;
  if (!isSafePackagePath(pkgPath, nameSegments)) {
    throw new IndexFormatError(
      CONFIG_PATH,
      "$.name_segments",
      `package names of this index have ${nameSegments} segments; ${JSON.stringify(pkgPath)} is not one`,
    );
  }
  const rootPath = rootFilePath(pkgPath);
  const rootBytes = await read(rootPath);
  const committed =
    rootBytes === undefined ? undefined : readCommittedRoot(rootBytes, rootPath, { nameSegments });
  if (committed !== undefined && splitPackageName(committed.root.name, nameSegments)?.path !== pkgPath) {
    throw new IndexFormatError(
      rootPath,
      "$.name",
      `${JSON.stringify(committed.root.name)} is not ${pkgPath}`,
    );
  }
  const catalogIndex = options.keepsCatalogIndex ? await read(CATALOG_INDEX_PATH) : undefined;
  const catalogPackages =
    catalogIndex === undefined
      ? undefined
      : parseCatalogIndex(catalogIndex, CATALOG_INDEX_PATH, { nameSegments }).packages;
  return {
    pkgPath,
    nameSegments,
    config,
    committed,
    keepsCatalogIndex: options.keepsCatalogIndex,
    catalogIndex,
    catalogPackages,
  };
}

/** A tag and the image index bytes it resolves to, exactly as the registry served them. */
export interface ObservedImageIndex {
  tag: string;
  bytes: Uint8Array;
}

/** The description (`__pkg.desc`) as observed now: its manifest digest, the fields derived from it,
 *  and the README and logo blobs it carries. */
export interface ObservedDescription {
  digest: string;
  title: string;
  description: string;
  keywords: string[];
  readme?: Uint8Array;
  logo?: { bytes: Uint8Array; ext: "svg" | "png" };
}

export interface PackageWriteInput {
  state: IndexState;
  /** Governance fields for a package the index does not hold yet. */
  newRoot?: NewRootFields;
  mode: RootUpdate["mode"];
  observed: readonly ObservedImageIndex[];
  description: ObservedDescription | null;
  now: Date;
  variantOf?: RootUpdate["variantOf"];
}

export interface PackageWrite {
  /** Files to write, in a safe order (objects, the root, config.json, c/index.json); only those
   *  whose bytes differ from what the index holds. Empty when nothing changes. */
  files: Map<string, Uint8Array>;
  status: "updated" | "unchanged";
  descStatus: "updated" | "unchanged";
  root: PackageRoot;
  rootBytes: Uint8Array;
  /** Observed tags listed, in order. */
  tags: string[];
  /** Tags added, or whose content moved. */
  changedTags: string[];
  reservedTagsDropped: string[];
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

function checkImageIndex(tag: string, bytes: Uint8Array): void {
  const where = `image index of tag ${tag}`;
  if (bytes.byteLength > IMAGE_INDEX_MAX_BYTES) {
    throw new IndexFormatError(
      where,
      "",
      `${bytes.byteLength} bytes, more than the ${IMAGE_INDEX_MAX_BYTES} an index stores`,
    );
  }
  parseImageIndex(documentValue(bytes, where), where);
}

function descOf(observed: ObservedDescription | null): Description | null {
  if (observed === null) return null;
  const desc: Description = {
    digest: observed.digest,
    title: observed.title,
    description: observed.description,
    keywords: observed.keywords,
  };
  if (observed.readme !== undefined) {
    if (observed.readme.byteLength > README_MAX_BYTES) {
      throw new IndexFormatError(
        "description README",
        "",
        `larger than the ${README_MAX_BYTES} bytes an index stores`,
      );
    }
    if (!isUtf8(observed.readme)) throw new IndexFormatError("description README", "", "not valid UTF-8");
    desc.readme = sha256Of(observed.readme);
  }
  if (observed.logo !== undefined) {
    if (observed.logo.bytes.byteLength > LOGO_MAX_BYTES) {
      throw new IndexFormatError(
        "description logo",
        "",
        `larger than the ${LOGO_MAX_BYTES} bytes an index stores`,
      );
    }
    desc.logo = sha256Of(observed.logo.bytes);
  }
  return desc;
}

const descKey = (desc: Description | null | undefined) =>
  desc == null
    ? "null"
    : JSON.stringify([desc.digest, desc.title, desc.description, desc.keywords, desc.readme, desc.logo]);

/**
 * The files one package's announce writes, computed from what the index holds (`state`) and what
 * was observed: the image indexes new to the root (verbatim, content-addressed), the README and
 * logo when new, the regenerated root, and for a holder that keeps them config.json (when absent)
 * and c/index.json. Objects already named by the committed root are taken to be present (the
 * index never names a missing object); nothing is ever deleted. Same inputs, same bytes: a second
 * run gives no files.
 */
export function planPackageWrite(input: PackageWriteInput): PackageWrite {
  const { state } = input;
  const pkgPath = state.pkgPath;
  const committedRoot = state.committed?.root;
  const known = new Set(Object.values(committedRoot?.tags ?? {}).map((entry) => entry.content));
  const objects = new Map<string, Uint8Array>();

  const observed = input.observed.map(({ tag, bytes }) => ({ tag, bytes, content: sha256Of(bytes) }));
  const result = buildPackageRoot({
    committed: state.committed,
    newRoot: input.newRoot,
    mode: input.mode,
    observed: observed.map(({ tag, content }) => ({ tag, content })),
    desc: descOf(input.description),
    now: input.now,
    variantOf: input.variantOf,
    nameSegments: state.nameSegments,
  });
  for (const { tag, bytes, content } of observed) {
    if (!result.tags.includes(tag)) continue;
    checkImageIndex(tag, bytes);
    if (!known.has(content)) objects.set(objectFilePath(pkgPath, content, "json"), bytes);
  }
  const desc = result.root.desc;
  if (
    desc?.readme !== undefined &&
    desc.readme !== committedRoot?.desc?.readme &&
    input.description?.readme
  ) {
    objects.set(objectFilePath(pkgPath, desc.readme, "md"), input.description.readme);
  }
  if (desc?.logo !== undefined && desc.logo !== committedRoot?.desc?.logo && input.description?.logo) {
    objects.set(objectFilePath(pkgPath, desc.logo, input.description.logo.ext), input.description.logo.bytes);
  }

  const files = new Map<string, Uint8Array>();
  const rootChanged = !sameBytes(state.committed?.bytes, Buffer.from(result.bytes));
  if (rootChanged) {
    for (const path of [...objects.keys()].sort()) files.set(path, objects.get(path) as Uint8Array);
    files.set(rootFilePath(pkgPath), result.bytes);
  }
  if (state.keepsCatalogIndex) {
    if (state.config === undefined) files.set(CONFIG_PATH, encodeIndexConfig(newIndexConfig()));
    const catalog = updateCatalogIndex(
      state.catalogIndex,
      CATALOG_INDEX_PATH,
      pkgPath,
      sha256Of(result.bytes),
      {
        nameSegments: state.nameSegments,
      },
    );
    if (!sameBytes(state.catalogIndex, Buffer.from(catalog))) files.set(CATALOG_INDEX_PATH, catalog);
  }
  return {
    files,
    status: files.size > 0 ? "updated" : "unchanged",
    descStatus: descKey(committedRoot?.desc) === descKey(desc) ? "unchanged" : "updated",
    root: result.root,
    rootBytes: result.bytes,
    tags: result.tags,
    changedTags: result.changedTags,
    reservedTagsDropped: result.reservedTagsDropped,
  };
}
