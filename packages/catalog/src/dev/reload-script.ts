/** The dev server's own URL space; the built site never uses it. */
export const devPrefix = "/__pkg-dev/";
export const reloadScriptPath = `${devPrefix}reload.js`;
export const eventsPath = `${devPrefix}events`;

/** The tag injected into served HTML: an external script, so a strict CSP keeps working. */
export const reloadScriptTag = `<script src="${reloadScriptPath}" defer></script>`;

/**
 * Browser code: marks `<html data-pkg-dev="connected">` once listening, reloads the page on an SSE `reload` event and shows a rebuild failure from an SSE
 * `error` event in an overlay (text only, styled through CSSOM, which CSP does not restrict).
 * EventSource also fires a plain `error` Event when the connection drops: only MessageEvents are ours.
 */
export const reloadScript = `"use strict";
(() => {
  const source = new EventSource(${JSON.stringify(eventsPath)});
  source.addEventListener("open", () => document.documentElement.setAttribute("data-pkg-dev", "connected"));
  source.addEventListener("reload", () => location.reload());
  source.addEventListener("error", (event) => {
    if (!(event instanceof MessageEvent)) return;
    let overlay = document.getElementById("pkg-dev-error");
    if (overlay === null) {
      overlay = document.createElement("div");
      overlay.id = "pkg-dev-error";
      overlay.setAttribute("role", "alert");
      Object.assign(overlay.style, {
        position: "fixed", left: "0", right: "0", bottom: "0", zIndex: "2147483647",
        margin: "0", padding: "12px 16px", background: "#7f1d1d", color: "#fff",
        font: "14px/1.4 ui-monospace, monospace", whiteSpace: "pre-wrap",
      });
      document.body.append(overlay);
    }
    overlay.textContent = "pkg-catalog dev: rebuild failed, showing the last good build\\n" + JSON.parse(event.data);
  });
})();
`;
