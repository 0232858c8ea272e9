import { ConfigError } from "./errors.js";

/* URL rules of catalog-config.md. Every check parses with the WHATWG parser (`new URL`); the raw
 * text is screened first for what that parser would silently drop or reinterpret. */

/** ASCII control characters, DEL and space: the URL parser strips some of them without a trace. */
function hasControlOrSpace(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}
/** The `{login}` placeholder of an owner-profile template. */
const LOGIN_PLACEHOLDER = "{login}";
/** The dummy origin a site-relative link is resolved against to see where it lands. */
const SITE_ORIGIN = "https://site.invalid";

function invalid(path: string, message: string): ConfigError {
  return new ConfigError("INVALID_TYPE", `${path} ${message}`, path);
}

function screen(raw: string, path: string): void {
  if (hasControlOrSpace(raw)) {
    throw invalid(path, `${JSON.stringify(raw)} contains whitespace or a control character`);
  }
  if (raw.includes("\\")) throw invalid(path, `${JSON.stringify(raw)} contains a backslash`);
}

function parse(raw: string, path: string, expected: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw invalid(path, `must be ${expected}, and ${JSON.stringify(raw)} does not parse as a URL`);
  }
}

/** An absolute http(s) URL: written with "http://" or "https://" and a host, parsed as such. */
function absoluteHttp(raw: string, path: string, expected: string): URL {
  screen(raw, path);
  if (!/^https?:\/\/[^/]/i.test(raw)) throw invalid(path, `must be ${expected}, not ${JSON.stringify(raw)}`);
  const url = parse(raw, path, expected);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(path, `must be ${expected}, not ${JSON.stringify(raw)}`);
  }
  return url;
}

/** `siteUrl`: the deployment's absolute http(s) base, kept as written. */
export function checkSiteUrl(raw: string, path: string): string {
  absoluteHttp(raw, path, "an absolute http or https URL");
  return raw;
}

/** Whether `raw` has a user name or password before its host: an "@" in the authority, the part
 *  after "scheme:" and its slashes (or backslashes, which the parser reads as slashes) and before
 *  the first "/", "\\", "?" or "#". Judged on the text without the spaces and control characters
 *  a parser would drop, so values that do not parse are caught too. */
function hasUserinfo(raw: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to drop
  const text = raw.replace(/[\u0000-\u0020\u007f]/g, "");
  const authority = text.replace(/^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*/, "").split(/[/\\?#]/, 1)[0] ?? "";
  return authority.includes("@");
}

/** `sources[].url`: an https base URL without credentials; returned normalised, without a
 *  trailing slash. A URL with credentials is refused before anything could echo it. */
export function checkSourceUrl(raw: string, path: string): string {
  if (hasUserinfo(raw)) {
    throw invalid(
      path,
      'carries credentials (a user name or password before "@"); the config file carries none: give the URL without them (it is not shown here)',
    );
  }
  screen(raw, path);
  if (!raw.startsWith("https://")) throw invalid(path, `must be an https:// URL, not ${JSON.stringify(raw)}`);
  const url = parse(raw, path, "an https:// URL");
  if (url.protocol !== "https:") throw invalid(path, `must be an https:// URL, not ${JSON.stringify(raw)}`);
  return url.href.replace(/\/+$/, "");
}

/** `ownerUrl`, `sources[].ownerUrl`: an http(s) template with `{login}` exactly once. */
export function checkOwnerUrl(raw: string, path: string): string {
  const count = raw.split(LOGIN_PLACEHOLDER).length - 1;
  if (count !== 1) {
    throw invalid(
      path,
      `must contain ${LOGIN_PLACEHOLDER} exactly once, and ${JSON.stringify(raw)} has it ${count} times`,
    );
  }
  // the schema's pattern is case-sensitive: the loader must not accept what it refuses
  if (!/^https?:\/\//.test(raw)) {
    throw invalid(path, `must be an absolute http or https URL template, not ${JSON.stringify(raw)}`);
  }
  absoluteHttp(raw, path, "an absolute http or https URL template");
  return raw;
}

/** `nav[].link`, `footer.links[].link`: an absolute http(s) URL, or a single-slash path that
 *  stays on the site's own origin. */
export function checkNavLink(raw: string, path: string): string {
  if (!raw.startsWith("/")) {
    if (/^(javascript|data|vbscript):/i.test(raw)) {
      throw invalid(path, `${JSON.stringify(raw)} is not allowed: only http(s) URLs and site paths are`);
    }
    absoluteHttp(raw, path, 'an absolute http(s) URL or a path starting with a single "/"');
    return raw;
  }
  screen(raw, path);
  if (raw.startsWith("//")) {
    throw invalid(
      path,
      `${JSON.stringify(raw)} points at another host; a site path starts with a single "/"`,
    );
  }
  const url = new URL(raw, SITE_ORIGIN);
  if (url.origin !== SITE_ORIGIN) {
    throw invalid(path, `${JSON.stringify(raw)} does not stay on the site's own origin`);
  }
  return raw;
}

/** `docsNav[].link`: `/docs/` or a path below it. */
export function checkDocsNavLink(raw: string, path: string): string {
  if (!raw.startsWith("/docs/")) {
    throw invalid(path, `must be /docs/ or a path below it, not ${JSON.stringify(raw)}`);
  }
  return raw;
}
