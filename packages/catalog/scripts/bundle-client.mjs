// Bundles the browser code (src/client) and the built-in stylesheet (assets/site.css) into
// dist/client/, minified. Run from the repository root: node packages/catalog/scripts/bundle-client.mjs
// Files are written to a temporary name and renamed, so concurrent runs never expose a partial file.
import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(packageDir, "dist", "client");
const client = (name) => join(packageDir, "src", "client", name);

const common = {
  bundle: true,
  minify: true,
  write: false,
  target: "es2020",
  logLevel: "warning",
  legalComments: "none",
};

const results = await Promise.all([
  // the theme script runs as a classic script in <head>, before the first paint
  build({ ...common, entryPoints: [client("theme.ts")], format: "iife", outfile: join(outDir, "theme.js") }),
  // classic scripts, not modules: a page opened from disk (file://) may not load modules, and
  // fetch nothing. The page loads site.js and catalog.js deferred; the others are loaded on first
  // use by adding a script element (src/client/site-root.ts, loadAsset), and set a global.
  build({
    ...common,
    entryPoints: [
      client("site.ts"),
      client("catalog.ts"),
      client("palette.ts"),
      client("catalog-search.tsx"),
    ],
    format: "iife",
    outdir: outDir,
  }),
  build({
    ...common,
    entryPoints: [join(packageDir, "assets", "site.css")],
    outfile: join(outDir, "site.css"),
  }),
]);

await mkdir(outDir, { recursive: true });
for (const file of results.flatMap((result) => result.outputFiles)) {
  const temp = `${file.path}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temp, file.contents);
  await rename(temp, file.path);
  process.stderr.write(`${basename(file.path)} ${file.contents.length} bytes\n`);
}
