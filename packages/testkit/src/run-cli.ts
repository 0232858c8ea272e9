import { spawnCollect } from "./run-command.js";

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
export async function runCli(
  bin: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !isCredentialSource(key)) env[key] = value;
  }
  Object.assign(env, { HOME: "/nonexistent-pkg-test-home" }, options.env);
  const { code, stdout, stderr } = await spawnCollect(process.execPath, [bin, ...args], {
    env,
    cwd: options.cwd,
  });
  return { code, stdout, stderr };
}
