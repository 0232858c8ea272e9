import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { open, readFile, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ExitCode, PkgError } from "@pkg/common";
import { spawnTracked, stopChild } from "./child-process.js";
import { freePort } from "./free-port.js";
import { type RegistryConfigInput, registryConfig } from "./registry-config.js";

const REGISTRY_BINARY = "/usr/bin/docker-registry";
const READY_TIMEOUT_MS = 15_000;
const POLL_INTERVAL_MS = 10;
const PORT_ATTEMPTS = 5;
const LOG_TAIL_CHARS = 1_500;

export interface RegistryProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  logPath: string;
}

export interface LaunchOptions {
  dir: string;
  tls?: { certPath: string; keyPath: string; caPem: string };
  config: Omit<RegistryConfigInput, "port" | "secret" | "tls">;
}

async function logTail(logPath: string): Promise<string> {
  const text = await readFile(logPath, "utf8").catch(() => "");
  const tail = text
    .trim()
    .slice(-LOG_TAIL_CHARS)
    .replace(/\s*\n\s*/g, " | ");
  return tail || "(empty log)";
}

/** Whether a distribution registry answers `GET /v2/` on the port (any status: 401 means up). */
function answers(port: number, caPem: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const request = caPem ? httpsRequest : httpRequest;
    const scheme = caPem ? "https" : "http";
    const req = request(`${scheme}://127.0.0.1:${port}/v2/`, { ca: caPem, timeout: 1_000 }, (res) => {
      res.resume();
      resolve(res.headers["docker-distribution-api-version"] !== undefined);
    });
    req.once("timeout", () => req.destroy());
    req.once("error", () => resolve(false));
    req.end();
  });
}

type Outcome = "ready" | "exited" | "timeout";

async function waitUntilReady(
  child: ChildProcess,
  port: number,
  caPem: string | undefined,
): Promise<Outcome> {
  const exited = new Promise<Outcome>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve("exited");
    child.once("exit", () => resolve("exited"));
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const polled = (async (): Promise<Outcome> => {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) return "exited";
      if (await answers(port, caPem)) return "ready";
      await sleep(POLL_INTERVAL_MS);
    }
    return "timeout";
  })();
  return Promise.race([exited, polled]);
}

async function launchOnce(options: LaunchOptions, port: number): Promise<RegistryProcess | "port-taken"> {
  const configPath = join(options.dir, "config.yml");
  const logPath = join(options.dir, "registry.log");
  const tls = options.tls ? { certPath: options.tls.certPath, keyPath: options.tls.keyPath } : undefined;
  const secret = randomBytes(16).toString("hex");
  await writeFile(configPath, registryConfig({ ...options.config, port, secret, tls }));
  const log = await open(logPath, "w");
  let child: ChildProcess;
  try {
    // A bare environment: distribution lets REGISTRY_* variables override the config file.
    child = await spawnTracked(REGISTRY_BINARY, ["serve", configPath], {
      stdio: ["ignore", log.fd, log.fd],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
  } finally {
    await log.close();
  }
  const outcome = await waitUntilReady(child, port, options.tls?.caPem);
  if (outcome === "ready") return { child, pid: child.pid as number, port, logPath };
  await stopChild(child);
  const tail = await logTail(logPath);
  if (outcome === "exited" && tail.includes("address already in use")) return "port-taken";
  const what =
    outcome === "exited" ? "exited before it was ready" : `was not ready within ${READY_TIMEOUT_MS} ms`;
  throw new PkgError(ExitCode.Unavailable, `docker-registry ${what}: ${tail}`);
}

/** Starts `docker-registry serve` with a generated config on a free loopback port and waits until it answers. */
export async function launchRegistry(options: LaunchOptions): Promise<RegistryProcess> {
  for (let attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
    const launched = await launchOnce(options, await freePort());
    if (launched !== "port-taken") return launched;
  }
  throw new PkgError(ExitCode.Unavailable, `docker-registry found no free port in ${PORT_ATTEMPTS} attempts`);
}
