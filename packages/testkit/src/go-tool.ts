import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";

/** Where the test command (scripts/test.mjs) builds the Go tools the tests use. */
export const GO_TOOLS_BIN = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
  "pkg-test-tools",
  "go-bin",
);

/**
 * The path of a tool the test command builds from its Go module (`cosign`, `referrers-registry`,
 * `actionlint`): on PATH, else in the test command's cache. Missing, the error says how to build it.
 */
export function goTool(name: string): string {
  for (const dir of [...(process.env.PATH ?? "").split(delimiter), GO_TOOLS_BIN]) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  throw new PkgError(
    ExitCode.Unavailable,
    `${name} is not built: run \`npm test\` once (scripts/test.mjs builds it into ${GO_TOOLS_BIN})`,
  );
}
