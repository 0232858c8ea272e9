import { fileURLToPath } from "node:url";
import { type CliResult, runCli } from "@pkg/testkit";

const bin = fileURLToPath(new URL("../../bin/pkg.js", import.meta.url));

/** Runs the built `pkg` bin (see @pkg/testkit runCli for the environment it gets). */
export function runPkg(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  return runCli(bin, args, options);
}
