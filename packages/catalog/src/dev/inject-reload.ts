import { reloadScriptTag } from "./reload-script.js";

/** Adds the reload script tag to a served HTML page: before `</head>`, else `</body>`, else at the end. */
export function injectReloadScript(html: string): string {
  for (const closing of [/<\/head\s*>/i, /<\/body\s*>/i]) {
    const match = closing.exec(html);
    if (match !== null) return `${html.slice(0, match.index)}${reloadScriptTag}${html.slice(match.index)}`;
  }
  return `${html}${reloadScriptTag}`;
}
