import { Command } from "@commander-js/extra-typings";
import type { ChildOutcome } from "../../exec/run.js";
import { trustedRootHelp, verifyRefusalHelp } from "../verify-help.js";

export function execCommand() {
  return new Command("exec")
    .description(
      "Install a package (and its dependencies) into the local store and run a command with its environment; the command's exit status is pkg's.",
    )
    .argument(
      "<reference>",
      "REGISTRY/REPOSITORY[:TAG] or REGISTRY/REPOSITORY@sha256:...; with --layout, REPOSITORY[:TAG|@sha256:...]",
    )
    .argument(
      "[command...]",
      "after --: the command and its arguments (default: the package's only entrypoint); looked up in the package's directories before PATH",
    )
    .option(
      "-p, --platform <key>",
      "platform key to select from the index (default: this host), e.g. linux/amd64+libc.musl",
    )
    .option(
      "--layout <dir>",
      "read packages from the OCI image layouts under DIR (DIR/<repository>, dependencies too) instead of registries",
    )
    .option("--verify-key <ref>", verifyRefusalHelp.key)
    .option("--verify-identity <id>", verifyRefusalHelp.identity)
    .option("--verify-issuer <url>", verifyRefusalHelp.issuer)
    .option("--trusted-root <file>", trustedRootHelp)
    .option(
      "--offline",
      "use only the local store: a tag runs what it last resolved to, and nothing is fetched (exit 69 when something is missing)",
    )
    .addHelpText(
      "after",
      `
The store is $PKG_HOME (default ~/.pkg). A tag is resolved with one request each run; a package
already installed is not fetched again. The command gets the package's consumer environment
(public and interface entries, its entrypoint launchers and its public and interface dependencies'
environment, first on PATH). A command the package ships but cannot run is exit 65, never the host's of the
same name. A command killed by a signal kills pkg with the same signal; SIGINT, SIGTERM and
SIGHUP are passed to the command while it runs.

Examples:
  pkg exec ghcr.io/acme/tool:1.2 -- tool --version
  pkg exec --layout ./layout tools/hello:1.0
  pkg exec --offline ghcr.io/acme/tool:1.2 -- tool fmt .`,
    )
    .action(async (ref, command, options) => {
      // loaded here, not at start-up: `pkg exec` is run in loops, every other command pays nothing for it
      const { execPackage } = await import("../../exec/exec-package.js");
      const { outcome, status } = await execPackage(ref, command, options);
      await endLikeChild(outcome, status);
    });
}

/**
 * Signals a Node process dies of by default once no listener is left. Node keeps others for
 * itself (SIGUSR1 starts its debugger, SIGPIPE is ignored): for those pkg exits with 128 + n.
 */
const RAISABLE = new Set<string>([
  "SIGHUP",
  "SIGINT",
  "SIGQUIT",
  "SIGTERM",
  "SIGKILL",
  "SIGALRM",
  "SIGUSR2",
  "SIGABRT",
]);

/**
 * Ends pkg as the command ended: with its exit code, or killed by the same signal (the handlers
 * that forwarded signals are gone, so the default action applies); a signal Node keeps for itself
 * ends it with 128 + the signal's number, as a shell reports it. The exit is here, at the top of
 * the command, because the status is the child's, not one of pkg's.
 */
async function endLikeChild(outcome: ChildOutcome, status: number): Promise<never> {
  if ("signal" in outcome && RAISABLE.has(outcome.signal)) {
    process.kill(process.pid, outcome.signal);
    // a signal to oneself may be delivered a moment later
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  process.exit(status);
}
