import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The libraries whose output lands in the pages. */
const renderingLibraries = ["markdown-it", "sanitize-html", "preact", "preact-render-to-string"];

let cached: string | undefined;

/**
 * A hash of everything that renders pages besides their data: the code of this package as it runs
 * (src or dist) and the versions of the rendering libraries. A build onto the output of another
 * renderer renders every page again.
 */
export function rendererHash(): string {
  cached ??= compute();
  return cached;
}

/** Read synchronously: a couple of hundred small files, which through the thread pool one by one
 *  kept a rebuild waiting several times as long. */
function compute(): string {
  const hash = createHash("sha256");
  const root = fileURLToPath(new URL("../", import.meta.url));
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(js|ts|tsx)$/.test(entry.name) && !/\.d\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(`${file.slice(root.length)}\0`).update(readFileSync(file));
  const require = createRequire(import.meta.url);
  for (const name of renderingLibraries) {
    try {
      const pkg = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as {
        version?: string;
      };
      hash.update(`${name}@${pkg.version ?? "?"}\0`);
    } catch {
      hash.update(`${name}@?\0`);
    }
  }
  return hash.digest("hex");
}
