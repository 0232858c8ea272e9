import { describe, expect, it } from "vitest";
import { gitFailure, gitSaid, isLostRace } from "./git-errors.js";

const job = { kind: "job" as const, source: "CI_JOB_TOKEN" };
const token = { kind: "token" as const, source: "PKG_ANNOUNCE_GIT_TOKEN" };
const http = (status: number, remote = "") =>
  `${remote ? `remote: ${remote}\n` : ""}fatal: unable to access 'https://git.example.org/acme/index.git/': The requested URL returned error: ${status}\n`;

describe("git failures", () => {
  it.each([
    [
      http(403, "Authentication by CI/CD job token not allowed from publisher to index."),
      job,
      77,
      "forge_publisher_not_allowlisted",
    ],
    [http(403, "You are not allowed to upload code."), job, 82, "forge_capability_unavailable"],
    [http(403, "You are not allowed to push code to this project."), job, 82, "forge_capability_unavailable"],
    ["fatal: the receiving end does not support push options\n", token, 82, "forge_capability_unavailable"],
    [http(403, "You are not allowed to upload code."), token, 80, undefined],
    [
      "remote: HTTP Basic: Access denied\nfatal: Authentication failed for 'https://x/a.git/'\n",
      token,
      80,
      undefined,
    ],
    [http(429), token, 75, undefined],
    [
      "remote: The project you were looking for could not be found.\nfatal: repository 'https://x/a.git/' not found\n",
      token,
      64,
      undefined,
    ],
    [http(502), token, 69, undefined],
    ["fatal: unable to access 'https://x/a.git/': Could not resolve host: x\n", token, 69, undefined],
    ["error: something else\n", token, 1, undefined],
  ])("%j (%j) is %i", (stderr, credential, exitCode, detail) => {
    const failure = gitFailure(stderr, "pushing", credential);
    expect(failure.exitCode).toBe(exitCode);
    expect(failure.detail).toBe(detail);
  });

  it("says the server's lines and git's own on one line", () => {
    expect(gitSaid(http(403, "You are not allowed to upload code."))).toBe(
      "remote: You are not allowed to upload code.; fatal: unable to access 'https://git.example.org/acme/index.git/': The requested URL returned error: 403",
    );
  });

  it.each([
    ["!\trefs/heads/b:refs/heads/b\t[rejected] (stale info)", true],
    [" ! [rejected]        b -> b (fetch first)", true],
    ["!\trefs/heads/b:refs/heads/b\t[rejected] (non-fast-forward)", true],
    ["!\trefs/heads/b:refs/heads/b\t[remote rejected] (failed to update ref)", true],
    ["remote: error: cannot lock ref 'refs/heads/b': is at 1234abcd but expected 5678ef01", true],
    ["!\trefs/heads/b:refs/heads/b\t[remote rejected] (pre-receive hook declined)", false],
  ])("%s: a lost race %s", (output, lost) => {
    expect(isLostRace(output)).toBe(lost);
  });
});
