// Runs one createBundle in a process of its own, so that its peak RSS can be read, and prints
// {"seconds", "maxRssBytes", "size"} as one JSON line.
import { performance } from "node:perf_hooks";
import { createBundle } from "../../packages/package/src/bundle/index.js";

const [sourceDir, output, level, threads = "0"] = process.argv.slice(2);
if (!sourceDir || !output || !level) {
  throw new Error("usage: create-child.ts <sourceDir> <output> <level> [threads]");
}
const started = performance.now();
const result = await createBundle({
  sourceDir,
  output,
  level: Number(level),
  threads: Number(threads),
});
const seconds = (performance.now() - started) / 1000;
// resourceUsage().maxRSS is in kilobytes
const maxRssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(`${JSON.stringify({ seconds, maxRssBytes, size: result.size })}\n`);
