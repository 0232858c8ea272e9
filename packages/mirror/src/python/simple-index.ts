/**
 * A project page of a Simple Repository API index: PEP 691 JSON or PEP 503 HTML, with PEP 592
 * yanking and the versions its file names list (wheels by PEP 427, sdists by name prefix).
 */
import { normalizeName } from "./name.js";
import { formatVersion, isPrerelease, parseVersion } from "./pep440.js";
import { parseWheelFilename } from "./tags.js";

export const SIMPLE_JSON = "application/vnd.pypi.simple.v1+json";
/** What a client asks for: JSON first, HTML otherwise (PEP 691 content negotiation). */
export const SIMPLE_ACCEPT = `${SIMPLE_JSON}, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01`;

export interface IndexFile {
  filename: string;
  /** Absolute URL, fragment removed. */
  url: string;
  hashes: Record<string, string>;
  requiresPython?: string;
  /** PEP 592: false, or true / the reason text when yanked. */
  yanked: boolean | string;
}

/** A malformed page (the index is then unavailable, exit 69, for the caller to raise). */
export class IndexPageError extends Error {}

/** Reads a project page; `pageUrl` (after redirects) resolves relative links. */
export function parseProjectPage(
  body: string,
  contentType: string | undefined,
  pageUrl: string,
): IndexFile[] {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === SIMPLE_JSON || type === "application/json") return parseJsonPage(body, pageUrl);
  return parseHtmlPage(body, pageUrl);
}

function parseJsonPage(body: string, pageUrl: string): IndexFile[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new IndexPageError("the JSON project page does not parse");
  }
  const files = (doc as { files?: unknown })?.files;
  if (!Array.isArray(files)) throw new IndexPageError("the JSON project page has no files list");
  return files.map((file: unknown): IndexFile => {
    const f = file as Record<string, unknown>;
    if (typeof f.filename !== "string" || typeof f.url !== "string") {
      throw new IndexPageError("a file of the JSON project page lacks filename or url");
    }
    const hashes =
      typeof f.hashes === "object" && f.hashes !== null ? (f.hashes as Record<string, unknown>) : {};
    const yanked =
      f.yanked === undefined || f.yanked === false ? false : typeof f.yanked === "string" ? f.yanked : true;
    return {
      filename: f.filename,
      url: absolute(f.url, pageUrl),
      hashes: Object.fromEntries(
        Object.entries(hashes).filter((e): e is [string, string] => typeof e[1] === "string"),
      ),
      ...(typeof f["requires-python"] === "string" ? { requiresPython: f["requires-python"] } : {}),
      yanked,
    };
  });
}

const ANCHOR = /<a\s([^>]*)>([\s\S]*?)<\/a\s*>/gi;
const ATTRIBUTE = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function parseHtmlPage(body: string, pageUrl: string): IndexFile[] {
  const base = /<base\s[^>]*href\s*=\s*["']([^"']+)["']/i.exec(body)?.[1];
  const baseUrl = base ? absolute(decodeEntities(base), pageUrl) : pageUrl;
  const files: IndexFile[] = [];
  for (const anchor of body.matchAll(ANCHOR)) {
    const attributes = new Map<string, string>();
    for (const a of (anchor[1] as string).matchAll(ATTRIBUTE)) {
      attributes.set((a[1] as string).toLowerCase(), decodeEntities(a[2] ?? a[3] ?? a[4] ?? ""));
    }
    const href = attributes.get("href");
    if (href === undefined) continue;
    const url = new URL(href, baseUrl);
    const hashes: Record<string, string> = {};
    const fragment = /^#([a-z0-9]+)=([0-9a-fA-F]+)$/.exec(url.hash);
    if (fragment) hashes[fragment[1] as string] = (fragment[2] as string).toLowerCase();
    url.hash = "";
    const text = decodeEntities((anchor[2] as string).replace(/<[^>]*>/g, "")).trim();
    const yanked = attributes.get("data-yanked");
    const requiresPython = attributes.get("data-requires-python");
    files.push({
      filename: text || lastSegment(url),
      url: url.href,
      hashes,
      ...(requiresPython === undefined ? {} : { requiresPython }),
      yanked: yanked === undefined ? false : yanked === "" ? true : yanked,
    });
  }
  return files;
}

function absolute(href: string, base: string): string {
  const url = new URL(href, base);
  url.hash = "";
  return url.href;
}

function lastSegment(url: URL): string {
  return decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf("/") + 1));
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code =
        entity[1] === "x" || entity[1] === "X"
          ? Number.parseInt(entity.slice(2), 16)
          : Number(entity.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[entity.toLowerCase()] ?? whole;
  });
}

const SDIST_SUFFIXES = [".tar.gz", ".zip", ".tar.bz2", ".tar.xz", ".tgz", ".tar"];

/** The version (normal form) a file of `project` carries, or undefined when its name says none. */
export function fileVersion(filename: string, project: string): string | undefined {
  const wanted = normalizeName(project);
  if (filename.endsWith(".whl")) {
    const wheel = parseWheelFilename(filename);
    return wheel && wheel.name === wanted ? wheel.version : undefined;
  }
  const suffix = SDIST_SUFFIXES.find((s) => filename.toLowerCase().endsWith(s));
  if (!suffix) return undefined;
  const stem = filename.slice(0, -suffix.length);
  for (let i = stem.indexOf("-"); i > 0; i = stem.indexOf("-", i + 1)) {
    if (normalizeName(stem.slice(0, i)) !== wanted) continue;
    const version = parseVersion(stem.slice(i + 1));
    if (version) return formatVersion(version);
  }
  return undefined;
}

export interface ListedVersion {
  version: string;
  prerelease: boolean;
  /** The version's non-yanked files. */
  files: IndexFile[];
}

/**
 * The versions a page lists: those with at least one non-yanked file (PEP 592), each with its
 * non-yanked files, in page order of first appearance.
 */
export function listedVersions(files: readonly IndexFile[], project: string): ListedVersion[] {
  const byVersion = new Map<string, IndexFile[]>();
  for (const file of files) {
    if (file.yanked !== false) continue;
    const version = fileVersion(file.filename, project);
    if (version === undefined) continue;
    const list = byVersion.get(version) ?? [];
    list.push(file);
    byVersion.set(version, list);
  }
  return [...byVersion].map(([version, versionFiles]) => ({
    version,
    prerelease: isPrerelease(parseVersion(version) as NonNullable<ReturnType<typeof parseVersion>>),
    files: versionFiles,
  }));
}
