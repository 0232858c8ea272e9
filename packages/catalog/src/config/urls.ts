import { ConfigError } from "./errors.js";
import { gitRemoteHasCredentials, hasUserinfo, redactUserinfo } from "./userinfo.js";

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

/** How a message quotes a URL-valued field: JSON, with any user name or password as "***". */
function shown(raw: string): string {
  return JSON.stringify(redactUserinfo(raw));
}

/** Refuses a URL with a user name or password before anything could echo it. */
function refuseCredentials(raw: string, path: string): void {
  if (!hasUserinfo(raw)) return;
  throw invalid(
    path,
    'carries credentials (a user name or password before "@"); the config file carries none: give the URL without them (it is not shown here)',
  );
}

function screen(raw: string, path: string): void {
  if (hasControlOrSpace(raw)) {
    throw invalid(path, `${shown(raw)} contains whitespace or a control character`);
  }
  if (raw.includes("\\")) throw invalid(path, `${shown(raw)} contains a backslash`);
}

function parse(raw: string, path: string, expected: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw invalid(path, `must be ${expected}, and ${shown(raw)} does not parse as a URL`);
  }
}

/** An absolute http(s) URL: written with "http://" or "https://" and a host, parsed as such. */
function absoluteHttp(raw: string, path: string, expected: string): URL {
  screen(raw, path);
  if (!/^https?:\/\/[^/]/i.test(raw)) throw invalid(path, `must be ${expected}, not ${shown(raw)}`);
  const url = parse(raw, path, expected);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(path, `must be ${expected}, not ${shown(raw)}`);
  }
  return url;
}

/** `siteUrl`: the deployment's absolute http(s) base, kept as written. */
export function checkSiteUrl(raw: string, path: string): string {
  refuseCredentials(raw, path);
  absoluteHttp(raw, path, "an absolute http or https URL");
  return raw;
}

/** `sources[].url`: an https base URL without credentials; returned normalised, without a
 *  trailing slash. A URL with credentials is refused before anything could echo it. */
export function checkSourceUrl(raw: string, path: string): string {
  refuseCredentials(raw, path);
  screen(raw, path);
  if (!raw.startsWith("https://")) throw invalid(path, `must be an https:// URL, not ${shown(raw)}`);
  const url = parse(raw, path, "an https:// URL");
  if (url.protocol !== "https:") throw invalid(path, `must be an https:// URL, not ${shown(raw)}`);
  return url.href.replace(/\/+$/, "");
}

/** `ownerUrl`, `sources[].ownerUrl`: an http(s) template with `{login}` exactly once. */
export function checkOwnerUrl(raw: string, path: string): string {
  refuseCredentials(raw, path);
  const count = raw.split(LOGIN_PLACEHOLDER).length - 1;
  if (count !== 1) {
    throw invalid(
      path,
      `must contain ${LOGIN_PLACEHOLDER} exactly once, and ${shown(raw)} has it ${count} times`,
    );
  }
  // the schema's pattern is case-sensitive: the loader must not accept what it refuses
  if (!/^https?:\/\//.test(raw)) {
    throw invalid(path, `must be an absolute http or https URL template, not ${shown(raw)}`);
  }
  absoluteHttp(raw, path, "an absolute http or https URL template");
  return raw;
}

/** `nav[].link`, `footer.links[].link`: an absolute http(s) URL, or a single-slash path that
 *  stays on the site's own origin. */
export function checkNavLink(raw: string, path: string): string {
  refuseCredentials(raw, path);
  if (!raw.startsWith("/")) {
    if (/^(javascript|data|vbscript):/i.test(raw)) {
      throw invalid(path, `${shown(raw)} is not allowed: only http(s) URLs and site paths are`);
    }
    absoluteHttp(raw, path, 'an absolute http(s) URL or a path starting with a single "/"');
    return raw;
  }
  screen(raw, path);
  if (raw.startsWith("//")) {
    throw invalid(path, `${shown(raw)} points at another host; a site path starts with a single "/"`);
  }
  const url = new URL(raw, SITE_ORIGIN);
  if (url.origin !== SITE_ORIGIN) {
    throw invalid(path, `${shown(raw)} does not stay on the site's own origin`);
  }
  return raw;
}

/** `docsNav[].link`: `/docs/` or a path below it. */
export function checkDocsNavLink(raw: string, path: string): string {
  refuseCredentials(raw, path);
  if (!raw.startsWith("/docs/")) {
    throw invalid(path, `must be /docs/ or a path below it, not ${shown(raw)}`);
  }
  return raw;
}

/** `sources[].git`: any remote git clones, without credentials: no user name or token on an
 *  http(s) remote, no password on any. An ssh login name (`git@host:org/r.git`) is kept. */
export function checkGitRemote(raw: string, path: string): string {
  if (gitRemoteHasCredentials(raw)) {
    throw invalid(
      path,
      'carries credentials (a password, or a user name or token on an http(s) remote, before "@"); the config file carries none: give the remote without them (it is not shown here)',
    );
  }
  return raw;
}
