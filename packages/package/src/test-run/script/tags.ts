// Tags the host puts on the Starlark errors it raises, read back to classify how a script ended.

/** An `expect.<kind>` that did not hold: `expect.eq`, ... (status failed, exit 1). */
export const EXPECT_PREFIX = "expect.";
/** A host call that could not do its work (a file not there, a program not found): failed, exit 1. */
export const HOST_FAILED = "host.failed";
/** The script misused the host API (a `..` path, a reserved variable, a bad regex, a shipped program that cannot run): 65. */
export const SCRIPT_ERROR = "host.script_error";
/** A `pkg.run` killed at its deadline: status timeout. */
export const TIMEOUT = "host.timeout";
