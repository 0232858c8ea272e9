import { execFile } from "node:child_process";
import { ExitCode, PkgError } from "@pkg/common";
import { redactUserinfo } from "../config/userinfo.js";
import { scrubCredentials } from "./scrub-credentials.js";

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Refuses values git could read as an option. */
function checkGitArgument(key: string, value: string): void {
  if (value.startsWith("-")) {
    throw new PkgError(
      ExitCode.Data,
      `${key}: ${JSON.stringify(redactUserinfo(value))} must not start with "-"`,
    );
  }
}

/** Git and ssh must fail rather than wait for a password nobody will type. */
function nonInteractiveEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const ssh = env.GIT_SSH_COMMAND === undefined && env.GIT_SSH === undefined;
  return {
    ...env,
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    ...(ssh ? { GIT_SSH_COMMAND: "ssh -o BatchMode=yes" } : {}),
  };
}

function git(args: string[], cwd: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-c", "protocol.ext.allow=never", ...args],
      {
        cwd,
        env: nonInteractiveEnv(process.env),
        maxBuffer: 4 * 1024 * 1024,
      },
      (error, _stdout, stderr) => {
        if (error === null) resolve();
        else reject(Object.assign(error, { stderr: String(stderr) }));
      },
    );
  });
}

/** Shallow-clones `remote` at `ref` (a branch or tag, or a full commit SHA; default its HEAD)
 *  into the empty directory `into`. A failure is exit 69, naming the remote without credentials. */
export async function shallowClone(
  remote: string,
  ref: string | undefined,
  into: string,
  key: string,
): Promise<void> {
  checkGitArgument(`${key}.git`, remote);
  if (ref !== undefined) checkGitArgument(`${key}.ref`, ref);
  try {
    if (ref !== undefined && FULL_SHA.test(ref)) {
      await git(["init", "--quiet", into], undefined);
      await git(["remote", "add", "origin", "--", remote], into);
      await git(["fetch", "--quiet", "--depth", "1", "origin", ref], into);
      await git(["checkout", "--quiet", "FETCH_HEAD"], into);
    } else {
      const branch = ref === undefined ? [] : ["--branch", ref];
      await git(["clone", "--quiet", "--depth", "1", ...branch, "--", remote, into], undefined);
    }
  } catch (error) {
    const detail = scrubCredentials(lastLine((error as { stderr?: string }).stderr ?? ""), remote);
    const at = ref === undefined ? "" : ` at ${ref}`;
    throw new PkgError(
      ExitCode.Unavailable,
      `${key}: cannot clone ${redactUserinfo(remote)}${at}${detail === "" ? "" : ` (${detail})`}`,
    );
  }
}

function lastLine(text: string): string {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return lines.at(-1) ?? "";
}
