import { describe, expect, it } from "vitest";
import { CREDENTIAL_HELPER, credentialEnvironment, resolveGitCredential } from "./git-credential.js";

const HOST = "git.example.org";
/** No home: no netrc of the machine's user is read. */
const env = (vars: Record<string, string>): NodeJS.ProcessEnv => ({
  HOME: "/nonexistent-pkg-test-home",
  ...vars,
});

describe("the git transport's credential", () => {
  it("PKG_ANNOUNCE_GIT_TOKEN first, with its user; the job token's value makes it a job credential", async () => {
    await expect(
      resolveGitCredential(
        HOST,
        env({
          PKG_ANNOUNCE_GIT_TOKEN: "deploy-secret",
          PKG_ANNOUNCE_GIT_USER: "gitlab+deploy-token-1",
          PKG_AUTH_GIT_EXAMPLE_ORG_TOKEN: "ladder-secret",
        }),
      ),
    ).resolves.toMatchObject({ username: "gitlab+deploy-token-1", password: "deploy-secret", kind: "token" });
    await expect(
      resolveGitCredential(HOST, env({ PKG_ANNOUNCE_GIT_TOKEN: "job-secret", CI_JOB_TOKEN: "job-secret" })),
    ).resolves.toMatchObject({ username: "gitlab-ci-token", kind: "job" });
  });

  it("then the host-keyed ladder, then the CI job token on that host only", async () => {
    await expect(
      resolveGitCredential(
        HOST,
        env({
          PKG_AUTH_GIT_EXAMPLE_ORG_USER: "bot",
          PKG_AUTH_GIT_EXAMPLE_ORG_TOKEN: "pat",
        }),
      ),
    ).resolves.toMatchObject({ username: "bot", password: "pat", kind: "token" });
    await expect(
      resolveGitCredential(HOST, env({ CI_JOB_TOKEN: "job", CI_SERVER_URL: "https://git.example.org" })),
    ).resolves.toMatchObject({
      username: "gitlab-ci-token",
      password: "job",
      kind: "job",
      source: "CI_JOB_TOKEN",
    });
    await expect(
      resolveGitCredential(
        "git.example.org:8443",
        env({
          CI_JOB_TOKEN: "job",
          CI_SERVER_HOST: "git.example.org",
          CI_SERVER_PORT: "8443",
        }),
      ),
    ).resolves.toMatchObject({ kind: "job" });
    // a job of another forge host: its token is not offered here
    await expect(
      resolveGitCredential(
        HOST,
        env({
          CI_JOB_TOKEN: "job",
          CI_SERVER_URL: "https://gitlab.com",
        }),
      ),
    ).rejects.toMatchObject({ exitCode: 80 });
  });

  it("reaches git through the environment only: a helper for that host, every earlier helper dropped", () => {
    const given = credentialEnvironment(HOST, {
      username: "u",
      password: "s3cret",
      kind: "token",
      source: "x",
    });
    expect(given).toMatchObject({
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_0: "credential.helper",
      GIT_CONFIG_VALUE_0: "",
      GIT_CONFIG_KEY_1: `credential.https://${HOST}.helper`,
      GIT_CONFIG_VALUE_1: CREDENTIAL_HELPER,
    });
    expect(CREDENTIAL_HELPER).not.toContain("s3cret");
    const settings = Object.entries(given).filter(([key]) => key.startsWith("GIT_CONFIG"));
    expect(JSON.stringify(settings)).not.toContain("s3cret");
  });
});
