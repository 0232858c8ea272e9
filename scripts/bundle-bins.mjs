// Bundles each bin's CLI (dist/cli/main.js of package, mirror and catalog, with the workspace
// packages they import) into dist/cli-bundle/: a few files instead of hundreds, which is most of
// what a command pays at start-up. Third-party packages stay external, loaded from node_modules
// as before. Every `import.meta.url` is rewritten to the URL of the module it was written in, so
// what a module finds beside itself (package.json, worker entries, createRequire) is unchanged.
// The bins run a bundle only while it is newer than every TypeScript build (see
// @pkg/common/bin-entry). Run from the repository root, after tsc -b.
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const bins = ["package", "mirror", "catalog"];

/** Third-party imports stay imports; the workspace's own packages (@pkg/*) are bundled. */
const externalThirdParty = {
  name: "external-third-party",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@pkg/") || args.path.startsWith("node:")
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/** `import.meta.url` of each bundled module, as it was: relative to the bundle's directory. */
function originalUrls(outDir) {
  return {
    name: "original-import-meta-url",
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        const source = await readFile(args.path, "utf8");
        if (!source.includes("import.meta.url")) return undefined;
        let rel = relative(outDir, args.path).split(sep).join("/");
        if (!rel.startsWith(".")) rel = `./${rel}`;
        const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
        return {
          contents: source.replaceAll("import.meta.url", url),
          loader: "js",
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}

/**
 * Moves a build into `outDir` without pulling anything from under a running bin: the chunks
 * (named by their content) first, `main.js` last, each by a rename. A chunk the new build no
 * longer has is removed ten minutes after it stopped being part of one (the time is kept in
 * `.superseded.json`), past what a command started before still loads lazily.
 */
async function publish(temp, outDir) {
  await mkdir(outDir, { recursive: true });
  const names = await readdir(temp);
  for (const name of names) if (name !== "main.js") await rename(join(temp, name), join(outDir, name));
  await rename(join(temp, "main.js"), join(outDir, "main.js"));
  await rm(temp, { recursive: true, force: true });
  const ledger = join(outDir, ".superseded.json");
  const since = await readFile(ledger, "utf8").then(JSON.parse, () => ({}));
  const now = Date.now();
  const kept = {};
  for (const name of await readdir(outDir)) {
    if (names.includes(name) || name === ".superseded.json") continue;
    const first = typeof since[name] === "number" ? since[name] : now;
    if (now - first > 10 * 60_000) await rm(join(outDir, name), { force: true });
    else kept[name] = first;
  }
  await writeFile(ledger, `${JSON.stringify(kept)}\n`);
}

await Promise.all(
  bins.map(async (name) => {
    const dist = join(root, "packages", name, "dist");
    const outDir = join(dist, "cli-bundle");
    const temp = `${outDir}.tmp-${process.pid}`;
    await rm(temp, { recursive: true, force: true });
    await mkdir(temp, { recursive: true });
    await build({
      entryPoints: { main: join(dist, "cli", "main.js") },
      outdir: temp,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "warning",
      // the chunks land in outDir: URLs are made relative to it, not to the temporary directory
      plugins: [externalThirdParty, originalUrls(outDir)],
    });
    await publish(temp, outDir);
  }),
);
