// `npm run bench [create|push|check|sync|catalog|starlark|startup|pipeline] [-- runs]`: the benchmarks of the package tool, each comparing
// against its reference tool in the same run and printing the figures and the goals.
import { formatCatalogBench, runCatalogBench } from "./bench/catalog.js";
import { formatCheckBench, runCheckBench } from "./bench/check.js";
import { formatCreateBench, runCreateBench } from "./bench/create.js";
import { formatPipelineBench, runPipelineBench } from "./bench/pipeline.js";
import { formatPushBench, runPushBench } from "./bench/push.js";
import { formatStarlarkBench, runStarlarkBench } from "./bench/starlark.js";
import { formatStartupBench, runStartupBench } from "./bench/startup.js";
import { formatSyncBench, runSyncBench } from "./bench/sync.js";

const which = process.argv[2] ?? "all";
const runs = process.argv[3] ? Number(process.argv[3]) : undefined;
if (
  !["all", "create", "push", "check", "sync", "catalog", "starlark", "startup", "pipeline"].includes(which) ||
  (runs !== undefined && !(runs >= 1))
) {
  process.stderr.write(
    "usage: npm run bench [-- all|create|push|check|sync|catalog|starlark|startup|pipeline [runs]]\n",
  );
  process.exit(64);
}

let ok = true;
if (which === "all" || which === "startup") {
  const result = await runStartupBench({ rounds: runs });
  process.stdout.write(`${formatStartupBench(result)}\n\n`);
  ok &&= result.ok;
}
if (which === "all" || which === "create") {
  const result = await runCreateBench({ runs });
  process.stdout.write(`${formatCreateBench(result)}\n\n`);
  ok &&= result.ok;
}
if (which === "all" || which === "push") {
  const result = await runPushBench({ rounds: runs });
  process.stdout.write(`${formatPushBench(result)}\n\n`);
  ok &&= result.ok;
}
if (which === "all" || which === "check") {
  const result = await runCheckBench();
  process.stdout.write(`${formatCheckBench(result)}\n\n`);
  ok &&= result.ok;
}
if (which === "all" || which === "pipeline") {
  const result = await runPipelineBench({ rounds: runs });
  process.stdout.write(`${formatPipelineBench(result)}\n\n`);
  ok &&= result.ok;
}
if (which === "all" || which === "sync") {
  const result = await runSyncBench({ rounds: runs });
  process.stdout.write(`${formatSyncBench(result)}\n\n`);
  ok &&= result.ok;
}
if (which === "all" || which === "catalog") {
  const result = await runCatalogBench();
  process.stdout.write(`${formatCatalogBench(result)}\n`);
  ok &&= result.ok;
}
if (which === "all" || which === "starlark") {
  const result = await runStarlarkBench({ runs });
  process.stdout.write(`${which === "all" ? "\n" : ""}${formatStarlarkBench(result)}\n`);
  ok &&= result.ok;
}
process.stdout.write(ok ? "all goals met\n" : "some goals NOT met\n");
