#!/usr/bin/env node
// A sample upstream on loopback for the demo: a forge releases API for examples/hello and the
// release assets it links to, two versions of examples/hello for linux/amd64 and linux/arm64 as
// tar.gz with their sha256 digests. Prints its URL on the first line of stdout and serves until
// it is stopped.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../hello", import.meta.url));
const versions = ["1.0.0", "1.1.0"];
const platforms = ["linux-amd64", "linux-arm64"];
const scratch = mkdtempSync(join(tmpdir(), "hello-upstream-"));

const files = new Map();
for (const version of versions) {
  const top = join(scratch, version, `hello-${version}`);
  cpSync(source, top, { recursive: true });
  writeFileSync(join(top, "share/hello/VERSION"), `${version}\n`);
  for (const platform of platforms) {
    const name = `hello-${version}-${platform}.tar.gz`;
    execFileSync("tar", ["-czf", join(scratch, name), "-C", join(scratch, version), `hello-${version}`]);
    files.set(name, readFileSync(join(scratch, name)));
  }
}
rmSync(scratch, { recursive: true, force: true });

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", base);
  const file = url.pathname.startsWith("/files/") ? files.get(url.pathname.slice(7)) : undefined;
  if (file) {
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": file.length });
    res.end(file);
  } else if (url.pathname === "/repos/examples/hello/releases") {
    const releases = [...versions].reverse().map((version) => ({
      tag_name: `v${version}`,
      draft: false,
      prerelease: false,
      assets: platforms.map((platform) => {
        const name = `hello-${version}-${platform}.tar.gz`;
        const digest = createHash("sha256").update(files.get(name)).digest("hex");
        return { name, browser_download_url: `${base}/files/${name}`, digest: `sha256:${digest}` };
      }),
    }));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(releases));
  } else {
    res.writeHead(404, { "content-type": "application/json" }).end('{"message":"Not Found"}');
  }
});
let base = "";
server.listen(0, "127.0.0.1", () => {
  base = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`${base}\n`);
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.close(() => process.exit(0)));
