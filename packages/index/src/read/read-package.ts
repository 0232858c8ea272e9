import { isUtf8 } from "node:buffer";
import { IndexFormatError } from "../errors.js";
import { splitPackageName } from "../grammar.js";
import { parseImageIndex } from "../parse-image-index.js";
import { parsePackageRoot } from "../parse-root.js";
import { type ObjectExtension, objectFilePath, rootFilePath } from "../paths.js";
import type { ImageIndex, PackageRoot } from "../types.js";
import { IndexFileError } from "./errors.js";
import { extensionOf, type IndexFileReader } from "./file-reader.js";
import { IMAGE_INDEX_MAX_BYTES, LOGO_MAX_BYTES, README_MAX_BYTES, ROOT_MAX_BYTES } from "./limits.js";
import type { LoadedPackage } from "./types.js";

export interface PackageContext {
  reader: IndexFileReader;
  nameSegments: number;
  /** Prefix of warning lines: `sources[0]`. */
  source: string;
}

export type PackageOutcome =
  | { ok: true; pkg: LoadedPackage; label: string; files: [string, Uint8Array][]; warnings: string[] }
  | { ok: false; warning: string };

/** Errors that condemn one file of the index rather than the whole read. */
function isFileProblem(error: unknown): error is IndexFileError | IndexFormatError {
  return error instanceof IndexFileError || error instanceof IndexFormatError;
}

/** Reads one package: its root (verified against `digest`), then the image indexes its tags name
 *  and its readme and logo (each verified against its own digest). A bad root skips the package;
 *  a bad object is left out with a warning. */
export async function readPackage(ctx: PackageContext, key: string, digest: string): Promise<PackageOutcome> {
  const skip = (reason: string): PackageOutcome => ({
    ok: false,
    warning: `${ctx.source}: skipped package ${key}: ${reason}`,
  });
  const rootPath = rootFilePath(key);
  let rootBytes: Uint8Array | undefined;
  let root: PackageRoot;
  try {
    rootBytes = await ctx.reader.read(rootPath, { maxBytes: ROOT_MAX_BYTES, digest });
    if (rootBytes === undefined) return skip(`${ctx.reader.describe(rootPath)}: not found`);
    root = parsePackageRoot(rootBytes, ctx.reader.describe(rootPath), { nameSegments: ctx.nameSegments });
  } catch (error) {
    if (isFileProblem(error)) return skip(error.message);
    throw error;
  }
  const name = splitPackageName(root.name, ctx.nameSegments);
  if (name === undefined || name.path !== key) {
    return skip(
      `root name ${JSON.stringify(root.name)} does not match its c/index.json key ${JSON.stringify(key)}`,
    );
  }

  const files: [string, Uint8Array][] = [[rootPath, rootBytes]];
  const warnings: string[] = [];
  /** Reads one verified object; it joins `files` only once `use` accepted it. */
  const object = async <T>(
    kind: string,
    objectDigest: string,
    extensions: ObjectExtension[],
    maxBytes: number,
    use: (bytes: Uint8Array, where: string, ext: ObjectExtension) => T,
  ): Promise<T | undefined> => {
    try {
      const paths = extensions.map((ext) => objectFilePath(key, objectDigest, ext));
      const found = await ctx.reader.readFirst(paths, { maxBytes, digest: objectDigest });
      if (found === undefined) {
        const alternatives = paths.slice(1).map((path) => ` (nor ${path.slice(path.lastIndexOf("."))})`);
        throw new IndexFileError(
          ctx.reader.describe(paths[0] as string),
          `not found${alternatives.join("")}`,
        );
      }
      const ext = extensionOf(found.relPath) as ObjectExtension;
      const value = use(found.bytes, ctx.reader.describe(found.relPath), ext);
      files.push([found.relPath, found.bytes]);
      return value;
    } catch (error) {
      if (!isFileProblem(error)) throw error;
      warnings.push(`${ctx.source}: package ${key}: left out ${kind} ${objectDigest}: ${error.message}`);
      return undefined;
    }
  };

  const desc = root.desc;
  const contents = [...new Set(Object.values(root.tags).map((tag) => tag.content))].sort();
  const [indexes, readme, logo] = await Promise.all([
    Promise.all(
      contents.map((content) =>
        object("image index", content, ["json"], IMAGE_INDEX_MAX_BYTES, (bytes, where) => {
          return [content, parseImageIndex(bytes, where)] as const;
        }),
      ),
    ),
    desc?.readme === undefined
      ? undefined
      : object("readme", desc.readme, ["md"], README_MAX_BYTES, checkReadme),
    desc?.logo === undefined
      ? undefined
      : object("logo", desc.logo, ["svg", "png"], LOGO_MAX_BYTES, (bytes, _where, ext) => ({
          digest: desc.logo as string,
          ext: ext as "svg" | "png",
          bytes,
        })),
  ]);

  const imageIndexes = new Map<string, ImageIndex>();
  for (const entry of indexes) if (entry !== undefined) imageIndexes.set(entry[0], entry[1]);
  const pkg: LoadedPackage = { name: root.name, path: key, root, imageIndexes };
  if (readme !== undefined) defineReadme(pkg, readme);
  if (logo !== undefined) pkg.logo = logo;
  files.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  warnings.sort();
  return { ok: true, pkg, label: name.label, files, warnings };
}

function checkReadme(bytes: Uint8Array, where: string): Uint8Array {
  if (!isUtf8(bytes)) throw new IndexFileError(where, "not valid UTF-8");
  return bytes;
}

/** The readme text is decoded when read, not kept beside its bytes: with thousands of packages the
 *  strings would double the memory the bytes (mirrored into the site anyway) already take. */
function defineReadme(pkg: LoadedPackage, bytes: Uint8Array): void {
  Object.defineProperty(pkg, "readme", {
    enumerable: true,
    configurable: true,
    get: () => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"),
  });
}
