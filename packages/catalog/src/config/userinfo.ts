/* Where a URL-valued config string keeps a user name or password, judged on its text so that values
 * which do not parse are read too. catalog-config.md: "The config file carries no credentials". */

/** ASCII control characters, DEL and space, as a regular-expression class body. */
const CONTROL = "\\u0000-\\u0020\\u007f";
/** A scheme and its colon, after any leading controls (the parser drops tabs and newlines inside). */
const SCHEME = new RegExp(`^[${CONTROL}]*([A-Za-z][A-Za-z0-9+.\\-${CONTROL}]*):`);
/** A run of slashes and backslashes (the parser reads "\\" as "/" in special URLs), controls between. */
const SLASHES = new RegExp(`^(?:[/\\\\][${CONTROL}]*)*`);
const LEADING_CONTROLS = new RegExp(`^[${CONTROL}]*`);
const ALL_CONTROLS = new RegExp(`[${CONTROL}]`, "g");
/** Schemes whose authority the WHATWG parser finds after any number of slashes, even none. */
const SPECIAL = new Set(["http", "https", "ws", "wss", "ftp", "file"]);
/** Git remotes whose user name is a credential (a token), not a login name. */
const TOKEN_SCHEMES = new Set(["http", "https", "ftp", "ftps"]);

interface Authority {
  /** The scheme, lower case and without controls, when the text starts with one. */
  scheme: string | undefined;
  /** Whether a URL parser reads an authority here (`scheme://`, `//host`, `https:host`). */
  real: boolean;
  /** Where the host part, or what could be one, starts: after the scheme and its slashes if the
   *  authority is real, else at the start of the text. */
  start: number;
  /** Index of the last "@" between `start` and the end of the authority ("/", "?", "#", and "\\"
   *  for http(s) and the like); -1 when none. */
  at: number;
}

function authorityOf(text: string): Authority {
  const schemeMatch = SCHEME.exec(text);
  const scheme = schemeMatch?.[1]?.replace(ALL_CONTROLS, "").toLowerCase();
  const leading = LEADING_CONTROLS.exec(text)?.[0].length ?? 0;
  const afterScheme = schemeMatch?.[0].length ?? leading;
  const slashRun = SLASHES.exec(text.slice(afterScheme))?.[0] ?? "";
  const slashes = slashRun.replace(ALL_CONTROLS, "").length;
  const real = slashes >= 2 || (scheme !== undefined && SPECIAL.has(scheme));
  const start = real ? afterScheme + slashRun.length : leading;
  const rest = text.slice(start);
  // a backslash ends the authority only where the parser reads it as "/" (a scheme-relative
  // value is resolved against an http(s) base); elsewhere it stays in, and so is redacted
  const special = scheme === undefined || SPECIAL.has(scheme);
  const end = rest.search(special ? /[/\\?#]/ : /[/?#]/);
  const at = (end === -1 ? rest : rest.slice(0, end)).lastIndexOf("@");
  return { scheme, real, start, at: at === -1 ? -1 : start + at };
}

/** Whether `raw` has a user name or password before its host: an "@" in its authority. Judged
 *  without the spaces and controls a parser would drop or choke on, so `https://u:p w@h` counts. */
export function hasUserinfo(raw: string): boolean {
  const { real, at } = authorityOf(raw.replace(ALL_CONTROLS, ""));
  return real && at !== -1;
}

/** `raw` with anything that could be a user name or password (up to the last "@" before the
 *  first "/", "?" or "#" after the scheme) replaced by "***": the only form of a URL-valued field a
 *  message may show. Redacts more than `hasUserinfo` finds (`user:pw@host` without "//", a
 *  `mailto:` address): a message loses a little, never a secret. Other values come back as they are. */
export function redactUserinfo(raw: string): string {
  const { start, at } = authorityOf(raw);
  return at === -1 ? raw : `${raw.slice(0, start)}***${raw.slice(at)}`;
}

/** Whether a git remote carries credentials: any user name or password on an http(s) or ftp(s)
 *  remote (`https://token@host/…`), a password anywhere (`ssh://u:pw@host/r`, `u:pw@host:r`). The
 *  user of an ssh URL or scp-like remote (`git@host:org/r.git`) is a login name and passes. */
export function gitRemoteHasCredentials(raw: string): boolean {
  const text = raw.replace(ALL_CONTROLS, "");
  const { scheme, real, start, at } = authorityOf(text);
  if (at === -1) return false;
  if (real && scheme !== undefined && TOKEN_SCHEMES.has(scheme)) return true;
  return text.slice(start, at).includes(":");
}
