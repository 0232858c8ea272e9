// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the metadata under test
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishPackage, script } from "./support/exec-packages.js";
import { runPkg } from "./support/run-pkg.js";

const bin = fileURLToPath(new URL("../bin/pkg.js", import.meta.url));
let work: TempDir;
let layout: string;
let env: Record<string, string>;

beforeAll(async () => {
  work = await tempDir("pkg-exec-signals-");
  layout = join(work.path, "layout");
  await publishPackage({
    work: work.path,
    layout,
    reference: "acme/waiter:1.0",
    tree: {
      // waits at most a minute, so a failing test leaves nothing running
      "bin/waiter": script(
        'trap "echo got $1; exit 3" "$1"; [ "$2" = self ] && kill "-$1" "$PPID"; echo ready; i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done',
      ),
    },
    metadata: { env: [{ key: "PATH", type: "path", value: "${installPath}/bin" }] },
  });
  env = { PKG_HOME: join(work.path, "home") };
  // installed once, so the runs below start their command at once
  expect((await runPkg(["exec", "--layout", layout, "acme/waiter:1.0", "--", "true"], { env })).code).toBe(0);
});
afterAll(async () => {
  await work?.remove();
});

const execArgs = (command: string[]) => ["exec", "--layout", layout, "acme/waiter:1.0", "--", ...command];

/** Runs `pkg exec ... -- waiter NAME` (the shell's trap takes TERM, not SIGTERM), sends `signal` to pkg once the command is ready, and reports how pkg ended. */
function signalWhenReady(signal: NodeJS.Signals) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...execArgs(["waiter", signal.slice(3)])], {
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        const first = stdout === "";
        stdout += chunk;
        if (first && stdout.startsWith("ready")) child.kill(signal);
      });
      child.once("error", reject);
      child.once("close", (code, endedBy) => resolve({ code, signal: endedBy, stdout }));
    },
  );
}

describe("pkg exec passes the command's end through", () => {
  it("exits with the command's exit code", async () => {
    const result = await runPkg(execArgs(["sh", "-c", "echo out; echo err >&2; exit 7"]), { env });
    expect(result).toEqual({ code: 7, stdout: "out\n", stderr: "err\n" });
  });

  it("dies of the signal that killed the command", async () => {
    const killed = await new Promise<NodeJS.Signals | null>((resolve) => {
      spawn(process.execPath, [bin, ...execArgs(["sh", "-c", "kill -TERM $$"])], {
        env: { ...process.env, ...env },
        stdio: "ignore",
      }).once("close", (_, signal) => resolve(signal));
    });
    expect(killed).toBe("SIGTERM");
  });

  it("exits 128 + n for a signal Node keeps for itself (SIGUSR1 starts its debugger), without starting it", async () => {
    const result = await runPkg(execArgs(["sh", "-c", "kill -USR1 $$"]), { env });
    expect(result.code).toBe(138);
    expect(result.stderr).toBe("");
  });

  it.each(["SIGTERM", "SIGINT"] as const)(
    "passes %s to the command, which decides how to end",
    async (signal) => {
      const result = await signalWhenReady(signal);
      expect(result).toEqual({ code: 3, signal: null, stdout: `ready\ngot ${signal.slice(3)}\n` });
    },
  );

  it("passes on a signal that comes as soon as the command starts (here from the command itself)", async () => {
    const result = await runPkg(execArgs(["waiter", "TERM", "self"]), { env });
    expect(result.code, result.stderr).toBe(3);
    // the trap runs once the signal is back, before or after the echo
    expect(result.stdout).toMatch(/^(ready\n)?got TERM\n$/);
  });
});
