import { registerSecret } from "@pkg/common";
import type { Field } from "./field.js";

const urlShape = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s;
const defaultPorts: Record<string, string> = { http: "80", https: "443" };

/**
 * An http(s) URL (or URL prefix) checked and normalised for comparison: scheme and host in lower
 * case, a default port dropped, the rest kept exactly as written. Userinfo (`user:token@`) is
 * refused, never stripped. Problems never echo the URL, which may hold a credential.
 */
export function normaliseHttpUrl(text: string): { url: string } | { problem: string } {
  if (/[\s\p{Cc}]/u.test(text)) return { problem: "must not contain spaces or control characters" };
  const match = urlShape.exec(text);
  if (!match) return { problem: "expected an http:// or https:// URL" };
  const [, rawScheme = "", authority = "", rest = ""] = match;
  const scheme = rawScheme.toLowerCase();
  if (!(scheme in defaultPorts))
    return { problem: `the scheme must be http or https, not ${JSON.stringify(scheme)}` };
  const at = authority.lastIndexOf("@");
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    registerSecret(userinfo.slice(userinfo.indexOf(":") + 1));
    return {
      problem:
        "embeds credentials (user:password@host), which a spec never holds; give them through PKG_AUTH_<host>_* variables or netrc",
    };
  }
  if (authority === "") return { problem: "names no host" };
  let parsed: URL;
  try {
    parsed = new URL(`${scheme}://${authority}/`);
  } catch {
    return { problem: "the host or port is not valid" };
  }
  return { url: `${scheme}://${parsed.host}${rest}` };
}

/**
 * Reads an http(s) URL. `normalise` gives the comparison form of `normaliseHttpUrl`; otherwise the
 * URL is kept as written (an index base is used exactly as given).
 */
export function readHttpUrl(field: Field, options: { normalise?: boolean } = {}): string | undefined {
  const text = field.string({ nonEmpty: true });
  if (text === undefined) return undefined;
  const result = normaliseHttpUrl(text);
  if ("problem" in result) return field.fail(result.problem);
  return options.normalise ? result.url : text;
}
