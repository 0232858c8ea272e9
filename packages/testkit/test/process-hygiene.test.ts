import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const INDEX = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Running and not a zombie: a container's PID 1 may never reap orphans. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** A separate node process that starts a registry, prints its PID and storage dir, then does `then`. */
function startRegistryInChild(then: string) {
  const script = `
    import { startRegistry } from ${JSON.stringify(INDEX)};
    const registry = await startRegistry({ auth: "token" });
    console.log(JSON.stringify({ pid: registry.pid, storageDir: registry.storageDir }));
    ${then}
  `;
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", "--input-type=module", "-e", script],
    {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const started = new Promise<{ pid: number; storageDir: string }>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) resolve(JSON.parse(out));
    });
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before starting a registry`)));
  });
  return { child, started };
}

async function waitUntilGone(pid: number): Promise<void> {
  while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("process hygiene", () => {
  it("a process that exits without stopping its registry kills it and removes its temp dir", async () => {
    const { child, started } = startRegistryInChild("process.exit(0);");
    const { pid, storageDir } = await started;
    if (child.exitCode === null) await once(child, "exit");
    expect(isRunning(pid)).toBe(false);
    expect(existsSync(storageDir)).toBe(false);
  });

  it("a registry dies with the process that started it, even one killed by SIGKILL", async () => {
    const { child, started } = startRegistryInChild("setInterval(() => undefined, 1000);");
    const { pid, storageDir } = await started;
    try {
      expect(isRunning(pid)).toBe(true);
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
      await waitUntilGone(pid);
      expect(isRunning(pid)).toBe(false);
    } finally {
      // Nothing runs in a process killed by SIGKILL, so its temp dir is ours to remove.
      await rm(dirname(storageDir), { recursive: true, force: true });
    }
  });
});
