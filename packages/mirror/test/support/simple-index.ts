// A loopback Simple Repository API index serving real wheel files: PEP 691 JSON by content
// negotiation (the "json" flavour) or PEP 503 HTML only (the "html" flavour), PEP 592 yanking,
// optional Basic credentials, and a status override per project to play a failing index.
import { readFile } from "node:fs/promises";
import { startHttpServer, type TestServer } from "@pkg/testkit";
import { normalizeName } from "../../src/python/name.js";
import type { BuiltWheel } from "./wheels.js";

export interface IndexedFile {
  wheel: BuiltWheel;
  /** PEP 592: true, or the reason. */
  yanked?: boolean | string;
}

export interface SimpleIndexOptions {
  flavour: "json" | "html";
  /** Project name (any spelling) → its files. */
  projects: Record<string, IndexedFile[]>;
  /** `user:password` the index requires (Basic); absent: anonymous. */
  basic?: string;
  /** Normalised project → status answered instead of its page. */
  status?: Record<string, number>;
  /** Normalised project → body served as its page (a malformed page). */
  rawPage?: Record<string, string>;
}

export interface SimpleIndex extends TestServer {
  /** The index base, as a spec's `indexes[].url` names it (`…/simple/`). */
  base: string;
}

export async function startSimpleIndex(options: SimpleIndexOptions): Promise<SimpleIndex> {
  const projects = new Map(
    Object.entries(options.projects).map(([name, files]) => [normalizeName(name), files]),
  );
  const files = new Map<string, BuiltWheel>();
  for (const list of projects.values()) for (const f of list) files.set(f.wheel.filename, f.wheel);
  const server = await startHttpServer(async (req, res) => {
    if (
      options.basic &&
      req.headers.authorization !== `Basic ${Buffer.from(options.basic).toString("base64")}`
    ) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="index"' });
      res.end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://index");
    const file = /^\/files\/([^/]+)$/.exec(url.pathname);
    if (file) {
      const wheel = files.get(decodeURIComponent(file[1] as string));
      if (!wheel) return notFound(res);
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(await readFile(wheel.path));
      return;
    }
    const page = /^\/simple\/([^/]+)\/$/.exec(url.pathname);
    const project = page && normalizeName(page[1] as string);
    if (!project) return notFound(res);
    const status = options.status?.[project];
    if (status !== undefined) {
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(`status ${status}\n`);
      return;
    }
    if (options.rawPage?.[project] !== undefined) {
      res.writeHead(200, { "content-type": "application/vnd.pypi.simple.v1+json" });
      res.end(options.rawPage[project]);
      return;
    }
    const list = projects.get(project);
    if (!list) return notFound(res);
    const wantsJson = (req.headers.accept ?? "").includes("application/vnd.pypi.simple.v1+json");
    if (options.flavour === "json" && wantsJson) {
      res.writeHead(200, { "content-type": "application/vnd.pypi.simple.v1+json" });
      res.end(
        JSON.stringify({
          meta: { "api-version": "1.1" },
          name: project,
          files: list.map((f) => ({
            filename: f.wheel.filename,
            url: `../../files/${encodeURIComponent(f.wheel.filename)}`,
            hashes: { sha256: f.wheel.sha256 },
            "requires-python": ">=3.8",
            ...(f.yanked === undefined ? {} : { yanked: f.yanked }),
          })),
        }),
      );
      return;
    }
    const anchors = list.map((f) => {
      const yanked =
        f.yanked === undefined || f.yanked === false
          ? ""
          : ` data-yanked="${f.yanked === true ? "" : f.yanked}"`;
      return `<a href="/files/${encodeURIComponent(f.wheel.filename)}#sha256=${f.wheel.sha256}" data-requires-python="&gt;=3.8"${yanked}>${f.wheel.filename}</a><br/>`;
    });
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!DOCTYPE html>\n<html><body><h1>Links for ${project}</h1>\n${anchors.join("\n")}\n</body></html>\n`,
    );
  });
  return { ...server, base: `${server.url}/simple/` };
}

function notFound(res: import("node:http").ServerResponse): void {
  res.writeHead(404, { "content-type": "text/plain" });
  res.end("not found\n");
}
