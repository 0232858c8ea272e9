import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { ExitCode, PkgError } from "@pkg/common";
import type { Result as AxeResult } from "axe-core";
import type { Browser, Page } from "playwright-core";
import { trackPid, untrackPid } from "./cleanup.js";
import { tempDir } from "./temp-dir.js";

const chromiumPath = "/usr/bin/chromium";

const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export interface RunningChromium {
  browser: Browser;
  /** The fresh profile directory (`--user-data-dir`), and the browser's process id. */
  profileDir: string;
  pid: number;
  /** Disconnects, stops the browser process and deletes its profile directory; idempotent. */
  close(): Promise<void>;
}

/** Resolves with the DevTools WebSocket URL Chromium prints on stderr once it listens. */
function devToolsUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    const onData = (chunk: string) => {
      stderr += chunk;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (match?.[1]) {
        child.stderr?.off("data", onData);
        // keep draining, or a chatty browser would block on a full pipe
        child.stderr?.resume();
        resolve(match[1]);
      }
    };
    child.stderr?.setEncoding("utf8").on("data", onData);
    child.once("error", (error) =>
      reject(new PkgError(ExitCode.Unavailable, `cannot run chromium: ${error.message}`)),
    );
    child.once("exit", (code) =>
      reject(
        new PkgError(ExitCode.Unavailable, `chromium exited ${code} before listening: ${stderr.slice(-500)}`),
      ),
    );
  });
}

/** Signals the browser's whole process group (it was started as a group leader). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  signalGroup(child, "SIGTERM");
  const timer = setTimeout(() => signalGroup(child, "SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Debian's Chromium, headless, with a fresh profile directory, driven by playwright-core over the
 * DevTools protocol (playwright refuses an explicit `--user-data-dir` when it launches the browser).
 */
export async function launchChromium(): Promise<RunningChromium> {
  if (!existsSync(chromiumPath)) {
    throw new PkgError(ExitCode.Unavailable, `${chromiumPath} is missing: apt-get install -y chromium`);
  }
  const profile = await tempDir("chromium-profile-");
  const child = spawn(
    chromiumPath,
    [...chromiumArgs, `--user-data-dir=${profile.path}`, "--remote-debugging-port=0", "about:blank"],
    { detached: true, stdio: ["ignore", "ignore", "pipe"] },
  );
  if (child.pid !== undefined) trackPid(-child.pid);
  let browser: Browser | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await browser?.close().catch(() => undefined);
      await stopProcess(child);
      if (child.pid !== undefined) untrackPid(-child.pid);
      await profile.remove();
    })();
    return closing;
  };
  try {
    // loaded here, so that importing the testkit does not load playwright for every test file
    const { chromium } = await import("playwright-core");
    browser = await chromium.connectOverCDP(await devToolsUrl(child));
  } catch (error) {
    await close();
    throw error;
  }
  return { browser, profileDir: profile.path, pid: child.pid ?? -1, close };
}

/** One axe-core violation, reduced to what a failing assertion needs to show. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core on the page as it is now (WCAG 2 A/AA and best-practice rules). A page served with
 * a strict Content-Security-Policy needs its context created with `bypassCSP: true`.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
  const violations = await page.evaluate(async () => {
    // axe.min.js defines a global `axe`; this callback runs in the page, not in Node.
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeResult[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")),
  }));
}
