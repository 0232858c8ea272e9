/**
 * README payloads that would each leave a trace if anything in them ran: `window.__pwned` set, a
 * dialog, a "PWNED" console message, or a request to the sentinel server (`sentinel` is its URL).
 * Links to click are labelled `click-<n>`.
 */
export function sentinelPayloads(sentinel: string): string[] {
  const set = (id: string) => `window.__pwned='${id}'`;
  return [
    `# Scripts\n\n<script>${set("script")}</script>\n<script src="${sentinel}/script.js"></script>\n` +
      `<scr<script>ipt>${set("split")}</script>\n\ntext after`,
    `# Handlers\n\n<img src="x" onerror="${set("onerror")}">\n<svg onload="${set("svg-onload")}"></svg>\n` +
      `<div onmouseover="${set("hover")}" id="hover-target">hover me</div>\n` +
      `<details open ontoggle="${set("toggle")}"><summary>s</summary>d</details>\n` +
      `<input autofocus onfocus="${set("focus")}">\n<body onload="${set("body")}">`,
    `# Links\n\n[click-1](javascript:${set("link-1")})\n\n<a href="JaVaScRiPt:${set("link-2")}">click-2</a>\n\n` +
      `<a href="jav&#x09;ascript:${set("link-3")}">click-3</a>\n\n` +
      `<a href="data:text/html,<script>alert('PWNED')</script>">click-4</a>\n\n` +
      `<a href=" javascript:console.log('PWNED')">click-5</a>\n\n` +
      `<a href="vbscript:msgbox(1)">click-6</a>\n\n[click-7](https://example.com/ok "fine")`,
    `# Frames and objects\n\n<iframe src="${sentinel}/iframe"></iframe>\n` +
      `<iframe srcdoc="<script>parent.${set("srcdoc")}</script>"></iframe>\n` +
      `<object data="${sentinel}/object"></object>\n<embed src="${sentinel}/embed">\n` +
      `<form action="${sentinel}/form"><button id="hostile-submit">click-8</button></form>`,
    `# Meta and CSS\n\n<meta http-equiv="refresh" content="0;url=${sentinel}/refresh">\n` +
      `<base href="${sentinel}/base/">\n<link rel="stylesheet" href="${sentinel}/style.css">\n` +
      `<style>@import url("${sentinel}/import.css"); body{background:url("${sentinel}/bg")}</style>\n` +
      `<div style="background-image:url('${sentinel}/inline-bg');position:fixed;inset:0">overlay</div>\n\n` +
      `[click-9](relative-after-base)`,
    `# SVG and MathML\n\n<svg><script>${set("svg-script")}</script><a xlink:href="javascript:${set("svg-link")}">` +
      `<text>click-10</text></a></svg>\n<math><mtext><table><mglyph><style><img src=x onerror="${set("mxss")}">` +
      "</style></mglyph></table></mtext></math>\n<noscript><p title=\"</noscript><img src=x onerror=alert('PWNED')>\"></noscript>",
    `# Broken\n\n<div><p>unclosed <b>bold <i>it\n<a href="https://ok.example/"unterminated onclick="${set("broken")}">click-11</a>\n` +
      `<img src="x" alt="a"b"c" onerror=${set("attr")}\n<!-- <script>${set("comment")}</script> -->\n</div></div></table>`,
  ];
}

/** An SVG logo with a script and handlers: harmless only as long as it is shown through `<img>`. */
export function hostileSvgLogo(sentinel: string): Uint8Array {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="window.__pwned='logo-onload'">` +
      `<script>window.__pwned='logo-script';fetch('${sentinel}/logo')</script>` +
      `<image href="${sentinel}/logo-image.png" width="10" height="10"/><rect width="10" height="10"/></svg>\n`,
  );
}
