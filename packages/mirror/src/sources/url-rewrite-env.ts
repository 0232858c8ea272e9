import { ExitCode, PkgError } from "@pkg/common";
import { normaliseHttpUrl } from "../spec/http-url.js";
import type { UrlRewrite } from "../spec/url-rewrite.js";

export const URL_REWRITE_ENV = "PKG_MIRROR_URL_REWRITE";

/**
 * The `url_rewrite` a run applies: `PKG_MIRROR_URL_REWRITE`, when set and not blank, replaces the
 * spec's block entirely; otherwise the spec's block (or none).
 *
 * Format of the variable: `FROM=TO`, two http(s) URL prefixes joined by the first `=` that is
 * followed by `http://` or `https://` (so a `=` inside FROM is kept). Both halves are checked and
 * normalised exactly as the spec's `from`/`to` are: credentials in either half and non-http(s)
 * schemes are refused (exit 65), and no message repeats the value.
 */
export function effectiveUrlRewrite(
  specRewrite: UrlRewrite | undefined,
  env: NodeJS.ProcessEnv,
): UrlRewrite | undefined {
  const raw = env[URL_REWRITE_ENV];
  if (raw === undefined || raw.trim() === "") return specRewrite;
  return parseUrlRewriteEnv(raw.trim());
}

export function parseUrlRewriteEnv(text: string): UrlRewrite {
  const split = /=(?=https?:\/\/)/i.exec(text);
  if (!split) {
    throw refused("expected FROM=TO, two http(s) URL prefixes joined by =");
  }
  const from = half(text.slice(0, split.index), "FROM");
  const to = half(text.slice(split.index + 1), "TO");
  return { from, to };
}

function half(text: string, which: string): string {
  if (text === "") throw refused(`${which} is empty`);
  const normal = normaliseHttpUrl(text);
  if ("problem" in normal) throw refused(`${which} ${normal.problem}`);
  return normal.url;
}

function refused(problem: string): PkgError {
  return new PkgError(ExitCode.Data, `${URL_REWRITE_ENV}: ${problem}`);
}
