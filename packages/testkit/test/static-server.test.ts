import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../src/http-server.js";
import { sendRequest } from "../src/send-request.js";
import { serveDirectory } from "../src/static-server.js";
import { type TempDir, tempDir } from "../src/temp-dir.js";

describe("serveDirectory", () => {
  let dir: TempDir;
  let server: TestServer;
  const csp = "default-src 'self'";

  beforeAll(async () => {
    dir = await tempDir("static-");
    const site = join(dir.path, "site");
    await mkdir(join(site, "docs", "a b"), { recursive: true });
    await writeFile(join(site, "index.html"), "<p>home</p>");
    await writeFile(join(site, "404.html"), "<p>missing</p>");
    await writeFile(join(site, "app.js"), "1;");
    await writeFile(join(site, "logo.svg"), "<svg/>");
    await writeFile(join(site, "docs", "a b", "index.html"), "<p>spaced</p>");
    await writeFile(join(dir.path, "secret.txt"), "secret");
    await symlink(join(dir.path, "secret.txt"), join(site, "link.txt"));
    server = await serveDirectory(site, { headers: { "content-security-policy": csp } });
  });
  afterAll(async () => {
    await server.stop();
    await dir.remove();
  });

  const get = (path: string) => sendRequest(`${server.url}${path}`);

  it("serves files with their content type and the extra headers", async () => {
    const js = await get("/app.js");
    expect(js.status).toBe(200);
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.headers["content-security-policy"]).toBe(csp);
    expect(js.body.toString()).toBe("1;");
    expect((await get("/logo.svg")).headers["content-type"]).toBe("image/svg+xml");
  });

  it("serves index.html for a directory and redirects to add the slash", async () => {
    const home = await get("/");
    expect(home.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(home.body.toString()).toBe("<p>home</p>");
    expect((await get("/docs/a%20b/")).body.toString()).toBe("<p>spaced</p>");
    const redirect = await get("/docs/a%20b?x=1");
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe("/docs/a%20b/?x=1");
  });

  it("answers misses with 404.html and status 404", async () => {
    const miss = await get("/nope/");
    expect(miss.status).toBe(404);
    expect(miss.body.toString()).toBe("<p>missing</p>");
    expect(miss.headers["content-security-policy"]).toBe(csp);
    expect((await get("/docs/")).status).toBe(404);
  });

  it("never serves outside the directory", async () => {
    for (const path of [
      "/../secret.txt",
      "/..%2fsecret.txt",
      "/%2e%2e/secret.txt",
      "/link.txt",
      "/..%5csecret.txt",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.body.toString(), path).not.toContain("secret");
    }
  });
});
