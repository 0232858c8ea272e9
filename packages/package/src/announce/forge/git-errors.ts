import { ExitCode, PkgError } from "@pkg/common";
import { DETAIL_CAPABILITY, DETAIL_NOT_ALLOWLISTED } from "./forge-http.js";
import type { GitCredential } from "./git-credential.js";

/** What git said, on one line: the server's `remote:` lines and git's `fatal:`/`error:` lines. */
export function gitSaid(stderr: string): string {
  const lines = stderr
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => /^(remote|fatal|error):/.test(line) && line.replace(/^remote:\s*/, "") !== "");
  const text = (lines.length > 0 ? lines : stderr.trim().split("\n").slice(-2)).join("; ");
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/**
 * The error for a failed git network command (clone, fetch, push) against a forgetwo index:
 * allowlist miss 77; a job token the index project does not let push, or a server without push
 * options, 82; a rejected credential or missing permission 80; 429 75; missing repository 64;
 * unreachable or 5xx 69; anything else 1.
 */
export function gitFailure(
  stderr: string,
  what: string,
  credential: Pick<GitCredential, "kind" | "source">,
): PkgError {
  const said = `${what}: ${gitSaid(stderr)}`;
  const text = stderr.toLowerCase();
  if (text.includes("job token not allowed from")) {
    return new PkgError(
      ExitCode.Permission,
      `${said}; the publishing project is not on the index project's job token allowlist`,
      {
        detail: DETAIL_NOT_ALLOWLISTED,
      },
    );
  }
  if (text.includes("does not support push options")) {
    return new PkgError(ExitCode.Unsupported, `${said}; the index server takes no push options`, {
      detail: DETAIL_CAPABILITY,
    });
  }
  if (
    credential.kind === "job" &&
    /not allowed to (upload|push) code|insufficient permissions to (pull|push)/.test(text)
  ) {
    return new PkgError(
      ExitCode.Unsupported,
      `${said}; the index project does not let this job token push (${credential.source})`,
      { detail: DETAIL_CAPABILITY },
    );
  }
  if (
    /returned error: 401|authentication failed|could not read (username|password)|invalid username or password|http basic: access denied/.test(
      text,
    )
  ) {
    return new PkgError(ExitCode.AuthRejected, `${said}; the forge rejected ${credential.source}`);
  }
  if (/returned error: 403|not allowed to/.test(text)) {
    return new PkgError(ExitCode.AuthRejected, `${said}; ${credential.source} has no permission for this`);
  }
  if (text.includes("returned error: 429")) return new PkgError(ExitCode.Transient, `${said}; rate-limited`);
  if (/returned error: 404|repository '.*' not found|could not be found/.test(text)) {
    return new PkgError(
      ExitCode.Usage,
      `${said}; no such index repository (or not visible to ${credential.source})`,
    );
  }
  if (
    /returned error: 5[0-9][0-9]|could not resolve|failed to connect|couldn't connect|connection refused|timed out|ssl|tls|certificate|unable to access/.test(
      text,
    )
  ) {
    return new PkgError(ExitCode.Unavailable, `${said}; the index server is unavailable`);
  }
  return new PkgError(ExitCode.Failed, said);
}

/**
 * Push refusals that mean another writer moved the branch since it was read (a lost race): the
 * lease or fast-forward check failing before the push, or the server's own compare-and-swap on the
 * ref failing when two pushes passed that check at once.
 */
export function isLostRace(output: string): boolean {
  return (
    /\[rejected\][^\n]*\((stale info|fetch first|non-fast-forward)\)/.test(output) ||
    /\[remote rejected\][^\n]*\((failed to update ref|failed to lock|cannot lock ref[^)]*)\)/.test(output) ||
    /cannot lock ref '[^']*': is at [0-9a-f]+ but expected/.test(output)
  );
}
