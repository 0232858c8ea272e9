import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { contentTypeFor } from "@pkg/common";
import { injectReloadScript } from "./inject-reload.js";
import { lookupSiteFile } from "./site-files.js";

const baseHeaders = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

/** Serves one GET/HEAD request from the built site at `root` (a real path); misses get `404.html`. */
export async function serveSiteRequest(
  root: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? "/", "http://localhost");
  const head = request.method === "HEAD";
  const found = await lookupSiteFile(root, url.pathname);
  if (found.kind === "redirect") {
    response.writeHead(301, { ...baseHeaders, Location: `${found.location}${url.search}` }).end();
    return;
  }
  if (found.kind === "file") {
    await sendFile(found.path, 200, head, response);
    return;
  }
  const notFound = await lookupSiteFile(root, "/404.html");
  if (notFound.kind === "file") {
    await sendFile(notFound.path, 404, head, response);
    return;
  }
  response.writeHead(404, { ...baseHeaders, "Content-Type": "text/plain; charset=utf-8" });
  response.end(head ? undefined : "not found\n");
}

async function sendFile(
  path: string,
  status: number,
  head: boolean,
  response: ServerResponse,
): Promise<void> {
  const contentType = contentTypeFor(path);
  if (contentType.startsWith("text/html")) {
    const body = Buffer.from(injectReloadScript(await readFile(path, "utf8")));
    response.writeHead(status, {
      ...baseHeaders,
      "Content-Type": contentType,
      "Content-Length": body.length,
    });
    response.end(head ? undefined : body);
    return;
  }
  const stream = createReadStream(path);
  await new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", reject);
  });
  response.writeHead(status, { ...baseHeaders, "Content-Type": contentType });
  if (head) {
    stream.destroy();
    response.end();
    return;
  }
  stream.on("error", () => response.destroy());
  stream.pipe(response);
}
