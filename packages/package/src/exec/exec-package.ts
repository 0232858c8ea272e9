import { stderrLogger, usageError } from "@pkg/common";
import { asksVerification } from "../cli/verify-help.js";
import { detectHostPlatform, hostFromPlatformKey } from "../platform/host.js";
import { openStore } from "../store/home.js";
import { installPackage } from "../store/install.js";
import { hostEnvOs } from "./compose-env.js";
import { planExec } from "./plan-exec.js";
import { type ChildOutcome, exitStatusOf, runForwardingSignals } from "./run.js";

/** The options of `pkg exec`, as its command line gives them. */
export interface ExecOptions {
  platform?: string;
  layout?: string;
  verifyKey?: string;
  verifyIdentity?: string;
  verifyIssuer?: string;
  trustedRoot?: string;
  offline?: boolean;
}

/**
 * `pkg exec`: installs the package `ref` names (and its dependencies) unless installed, runs
 * `command` (default: its only entrypoint) in its environment and resolves how the command ended
 * and the status pkg ends with. One module with what this needs, loaded when the command runs:
 * the registry client, extraction and the signing modules load only when they are used.
 */
export async function execPackage(
  ref: string,
  command: readonly string[],
  options: ExecOptions,
): Promise<{ outcome: ChildOutcome; status: number }> {
  const host = options.platform === undefined ? detectHostPlatform() : hostFromPlatformKey(options.platform);
  const os = hostEnvOs();
  const verify = asksVerification(options)
    ? await (await import("../cli/sign-options.js")).manifestVerifier(options, process.env)
    : undefined;
  if (verify && options.offline === true)
    throw usageError("--verify-key/--verify-identity read signatures from the registry: not with --offline");
  const installed = await installPackage(ref, {
    store: openStore(),
    source: options.layout === undefined ? { kind: "registry" } : { kind: "layout", root: options.layout },
    host,
    offline: options.offline === true,
    log: stderrLogger(),
    os,
    ...(verify ? { verifyManifest: verify } : {}),
  });
  const plan = await planExec(installed, command, process.env, os);
  const outcome = await runForwardingSignals(plan.command.path, plan.args, {
    env: plan.env,
    argv0: plan.argv0,
  });
  return { outcome, status: exitStatusOf(outcome) };
}
