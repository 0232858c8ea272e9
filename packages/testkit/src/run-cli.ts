import { spawn } from "node:child_process";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment variables through which a developer's real credentials could reach a test. */
function isCredentialSource(key: string): boolean {
  return (
    key.startsWith("PKG_AUTH_") || key === "NETRC" || key === "DOCKER_CONFIG" || key === "FORGEONE_TOKEN"
  );
}

/**
 * Runs one of our built CLIs (`bin` is a Node script) as a user would and collects its exit code
 * and output, whatever the code. The environment is the test's own minus credential sources, with
 * HOME pointed at nothing (no ~/.netrc, no ~/.docker), plus `env`.
 */
export function runCli(
  bin: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !isCredentialSource(key)) env[key] = value;
  }
  Object.assign(env, { HOME: "/nonexistent-pkg-test-home" }, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
