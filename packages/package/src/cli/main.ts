import { runCli } from "@pkg/common";
import { buildProgram } from "./program.js";

export async function main(argv: readonly string[]): Promise<void> {
  await runCli(await buildProgram(argv.slice(2)), argv);
}
