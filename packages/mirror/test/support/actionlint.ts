import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

const INSTALL =
  "install it: GOBIN=$HOME/.cache/pkg-test-tools/go-bin go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 (npm test puts that directory on PATH), and shellcheck with apt-get install shellcheck";

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const path = join(dir, name);
    if (dir !== "" && existsSync(path)) return path;
  }
  return undefined;
}

/** Both linters' paths; a missing one fails, saying how to install it. */
export function lintTools(): { actionlintPath: string; shellcheckPath: string } {
  const actionlintPath = onPath("actionlint");
  const shellcheckPath = onPath("shellcheck");
  if (!actionlintPath) throw new Error(`actionlint is not on PATH; ${INSTALL}`);
  if (!shellcheckPath)
    throw new Error(`shellcheck is not on PATH (actionlint would skip the scripts); ${INSTALL}`);
  return { actionlintPath, shellcheckPath };
}

/**
 * Runs actionlint (with shellcheck, which it would silently skip when absent) over workflow files;
 * returns its findings, one per line, empty when clean. Missing tools fail the test, saying how to
 * install them: a lint that did not run must not pass.
 */
export function actionlint(files: readonly string[]): string[] {
  const actionlintPath = onPath("actionlint");
  const shellcheckPath = onPath("shellcheck");
  if (!actionlintPath) throw new Error(`actionlint is not on PATH; ${INSTALL}`);
  if (!shellcheckPath)
    throw new Error(`shellcheck is not on PATH (actionlint would skip the scripts); ${INSTALL}`);
  const run = spawnSync(actionlintPath, ["-no-color", "-shellcheck", shellcheckPath, ...files], {
    encoding: "utf8",
  });
  if (run.error) throw run.error;
  const lines = `${run.stdout}${run.stderr}`.split("\n").filter((line) => line.trim() !== "");
  if (run.status !== 0 && lines.length === 0)
    throw new Error(`actionlint exited ${run.status} with no finding`);
  return lines;
}
