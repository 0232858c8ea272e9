import { startHttpServer, type TestServer } from "@pkg/testkit";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openRegistry } from "../src/registry.js";

// Distribution 2.8 ignores `n`/`last` on tags/list, so paging is served here by a loopback
// server speaking the distribution API's pagination (`n`, `last`, `Link: <...>; rel="next"`).
const tags = Array.from({ length: 11 }, (_, i) => `t${String(i).padStart(2, "0")}`);
let server: TestServer;

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== "/v2/paged/repo/tags/list") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ errors: [{ code: "NAME_UNKNOWN", message: "repository name not known" }] }));
      return;
    }
    const n = Number(url.searchParams.get("n") ?? tags.length);
    const last = url.searchParams.get("last");
    const from = last === null ? 0 : tags.indexOf(last) + 1;
    const page = tags.slice(from, from + n);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (from + n < tags.length) {
      const next = `/v2/paged/repo/tags/list?n=${n}&last=${page[page.length - 1]}`;
      // alternate relative and absolute links
      headers.link = `<${from % 2 === 0 ? next : `${server.url}${next}`}>; rel="next"`;
    }
    res.writeHead(200, headers);
    res.end(JSON.stringify({ name: "paged/repo", tags: page }));
  });
});
afterAll(async () => {
  await server?.stop();
});

test("tag listing follows Link pages with a small n", async () => {
  const repo = openRegistry(`${server.host}/paged/repo`, { tagPageSize: 3 });
  expect(await repo.listTags()).toEqual(tags);
  const pages = server.requests.filter((r) => r.url.startsWith("/v2/paged/repo/tags/list"));
  expect(pages.length).toBe(4);
  expect(pages.every((p) => new URL(p.url, "http://x").searchParams.get("n") === "3")).toBe(true);
  expect(await openRegistry(`${server.host}/other/repo`).listTags()).toEqual([]);
});
