import { runCli } from "@pkg/common";
import { buildProgram } from "./program.js";

export async function main(argv: readonly string[]): Promise<void> {
  await runCli(buildProgram(), argv);
}
