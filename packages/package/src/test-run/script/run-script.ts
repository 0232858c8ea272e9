import { isPkgError } from "@pkg/common";
import { execModule, StarlarkEvalError, StarlarkSyntaxError } from "@pkg/starlark";
import type { CapturedRun } from "../capture.js";
import type { Assertion, AssertionKind, TestStatus } from "../report.js";
import { statusOfExitCode } from "../report.js";
import { expectNamespace } from "./expect.js";
import { type HostContext, pkgNamespace } from "./host.js";
import { EXPECT_PREFIX, HOST_FAILED, SCRIPT_ERROR, TIMEOUT } from "./tags.js";

/** How a script ended. */
export interface ScriptOutcome {
  status: TestStatus;
  message: string | null;
  assertion: Assertion | null;
  /** The last `pkg.run`, if any ran. */
  run: CapturedRun | null;
}

const KINDS = new Set<string>(["ok", "eq", "ne", "true", "false", "contains", "matches", "fail"]);

/**
 * Runs a test script (`file` names it in messages) with the `pkg` and `expect` namespaces.
 * The file may bind a global again and use `if`/`for` at the top level; `load()` is not
 * available: a script is one file. Passing is reaching the end; an expectation, `fail()` or a
 * host call that could not do its work fails it (1); a script that does not parse or misuses the
 * language or the host API is a script error (65); a `pkg.run` past its deadline is a timeout.
 */
export function runScript(
  source: string,
  file: string,
  context: Omit<HostContext, "onRun">,
  print: (line: string) => void,
): ScriptOutcome {
  let run: CapturedRun | null = null;
  const host: HostContext = {
    ...context,
    onRun: (captured) => {
      run = captured;
    },
  };
  try {
    execModule({
      file,
      source,
      predeclared: { pkg: pkgNamespace(host), expect: expectNamespace() },
      options: { allowTopLevelControl: true, allowGlobalReassign: true, print: (line) => print(line) },
    });
    return { status: "passed", message: null, assertion: null, run };
  } catch (error) {
    return { ...classify(error), run };
  }
}

function classify(error: unknown): Omit<ScriptOutcome, "run"> {
  if (error instanceof StarlarkSyntaxError) return ended("script_error", error.message, null);
  if (!(error instanceof StarlarkEvalError)) throw error;
  const message = error.message;
  if (error.kind === "fail") return ended("failed", message, { kind: "fail", message: error.detail });
  if (error.kind === "cancelled") return ended("timeout", message, null);
  if (error.kind === "internal") {
    if (isPkgError(error.cause)) return ended(statusOfExitCode(error.cause.exitCode), message, null);
    throw error.cause ?? error;
  }
  const tag = error.tag;
  if (tag?.startsWith(EXPECT_PREFIX)) {
    const kind = tag.slice(EXPECT_PREFIX.length);
    return ended("failed", message, {
      kind: (KINDS.has(kind) ? kind : "unknown") as AssertionKind,
      message: error.detail,
    });
  }
  if (tag === HOST_FAILED) return ended("failed", message, { kind: "other", message: error.detail });
  if (tag === TIMEOUT) return ended("timeout", message, null);
  if (tag === SCRIPT_ERROR) return ended("script_error", message, null);
  // the language's own errors: a wrong type, a missing key, an arity mismatch
  return ended("script_error", message, null);
}

function ended(status: TestStatus, message: string, assertion: Assertion | null): Omit<ScriptOutcome, "run"> {
  return { status, message, assertion };
}
