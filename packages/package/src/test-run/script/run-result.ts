import { Struct } from "@pkg/starlark";
import type { CapturedRun } from "../capture.js";

/** `type()` of what `pkg.run` returns. */
export const RUN_RESULT = "run_result";

/** What `pkg.run` returns: `exit_code`, `stdout`, `stderr`, `duration_ms`, `truncated`. */
export function runResult(run: CapturedRun): Struct {
  return new Struct(RUN_RESULT, {
    exit_code: run.exit_code,
    stdout: run.stdout,
    stderr: run.stderr,
    duration_ms: run.duration_ms,
    truncated: run.truncated,
  });
}
