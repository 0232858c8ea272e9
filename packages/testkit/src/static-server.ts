import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { join, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { contentTypeFor } from "@pkg/common";
import { startHttpServer, type TestServer } from "./http-server.js";

/** The real path of `path` when it exists and lies inside `root` (itself a real path), else undefined. */
async function containedRealPath(root: string, path: string): Promise<string | undefined> {
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined || (real !== root && !real.startsWith(root + sep))) return undefined;
  return real;
}

async function sendFile(
  res: ServerResponse,
  path: string,
  status: number,
  headers: Record<string, string>,
  head: boolean,
): Promise<void> {
  const size = (await stat(path)).size;
  res.writeHead(status, { ...headers, "content-type": contentTypeFor(path), "content-length": size });
  if (head) return void res.end();
  await pipeline(createReadStream(path), res);
}

/** Where a URL path lands in `root`: a file, a directory's index.html, or a redirect to add the slash. */
async function resolveTarget(
  root: string,
  urlPath: string,
): Promise<{ file: string } | { redirect: string } | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return undefined;
  const real = await containedRealPath(root, join(root, decoded));
  if (real === undefined) return undefined;
  const info = await stat(real);
  if (info.isFile()) return { file: real };
  if (!info.isDirectory()) return undefined;
  if (!urlPath.endsWith("/")) return { redirect: `${urlPath}/` };
  const index = await containedRealPath(root, join(real, "index.html"));
  return index === undefined ? undefined : { file: index };
}

/**
 * A loopback static file server over `dir`, as a static host serves a site: GET and HEAD only,
 * content types by extension, `index.html` for a directory (a slash added by redirect), the root's
 * `404.html` with status 404 for anything missing, nothing outside `dir` (symbolic links included).
 * `headers` are added to every response (a Content-Security-Policy, say). With `base` (`/catalog/`)
 * the directory is served under that path only, as a project site is: anything outside it is a
 * plain 404.
 */
export async function serveDirectory(
  dir: string,
  options: { headers?: Record<string, string>; base?: string } = {},
): Promise<TestServer> {
  const root = await realpath(dir);
  const headers = options.headers ?? {};
  const base = (options.base ?? "/").replace(/\/*$/, "/");
  return startHttpServer(async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      return res.writeHead(405, { ...headers, allow: "GET, HEAD" }).end();
    }
    const head = req.method === "HEAD";
    const url = new URL(req.url ?? "/", "http://static");
    if (`${url.pathname}/` === base) {
      return res.writeHead(301, { ...headers, location: base + url.search }).end();
    }
    if (!url.pathname.startsWith(base)) {
      return res
        .writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" })
        .end("not found\n");
    }
    const target = await resolveTarget(root, url.pathname.slice(base.length - 1));
    if (target && "redirect" in target) {
      const location = base + target.redirect.slice(1);
      return res.writeHead(301, { ...headers, location: location + url.search }).end();
    }
    if (target) return sendFile(res, target.file, 200, headers, head);
    const notFound = await containedRealPath(root, join(root, "404.html"));
    if (notFound) return sendFile(res, notFound, 404, headers, head);
    res.writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" }).end("not found\n");
  });
}
