import type { IncomingMessage, ServerResponse } from "node:http";
import { describeError } from "@pkg/common";
import type { EventStream } from "./event-stream.js";
import { devPrefix, eventsPath, reloadScript, reloadScriptPath } from "./reload-script.js";
import { serveSiteRequest } from "./site-handler.js";

/**
 * The dev server's request handler: its own reload script and event stream under `/__pkg-dev/`,
 * everything else from the current build (`siteRoot()`, undefined until the first build is done).
 */
export function devRequestHandler(events: EventStream, siteRoot: () => string | undefined) {
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
    const root = siteRoot();
    if (pathname === reloadScriptPath) {
      response.writeHead(200, {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "no-store",
      });
      response.end(request.method === "HEAD" ? undefined : reloadScript);
    } else if (pathname === eventsPath) {
      events.attach(request, response);
    } else if (pathname.startsWith(devPrefix) || root === undefined) {
      response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found\n");
    } else {
      await serveSiteRequest(root, request, response);
    }
  }
  return (request: IncomingMessage, response: ServerResponse): void => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      response.end(`${describeError(error).line}\n`);
    });
  };
}
