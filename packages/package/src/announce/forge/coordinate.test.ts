import { describe, expect, it } from "vitest";
import { apiBaseUrl, gitRemoteUrl, matchForgeCoordinate, resolveForgeTarget } from "./coordinate.js";

describe("forge coordinates", () => {
  it.each([
    ["acme/index", { host: "github.com", namespace: "acme", project: "index" }],
    ["gitlab.com/group/sub/index", { host: "gitlab.com", namespace: "group/sub", project: "index" }],
    ["Git.Example.org:8443/a/b", { host: "git.example.org:8443", namespace: "a", project: "b" }],
    ["localhost/a/b", { host: "localhost", namespace: "a", project: "b" }],
  ])("%s", (text, expected) => {
    expect(matchForgeCoordinate(text)).toMatchObject({ text, ...expected });
  });

  it.each([
    ["https://github.com/acme/index", "is a URL"],
    ["git@github.com:acme/index.git", "is a URL"],
    ["index", "is not"],
    ["github.com/index", "is not"],
    ["acme/../index", "not a namespace or project name"],
    ["host:99999x/a/b", "is not a host[:port]"],
  ])("%s is refused", (text, said) => {
    expect(matchForgeCoordinate(text)).toContain(said);
  });

  it("API roots: the public hosts' own, GitHub Enterprise's /api/v3 and GitLab's /api/v4 elsewhere", () => {
    expect(apiBaseUrl("forgeone", "github.com")).toBe("https://api.github.com");
    expect(apiBaseUrl("forgetwo", "gitlab.com")).toBe("https://gitlab.com/api/v4");
    expect(apiBaseUrl("forgeone", "ghe.example.org")).toBe("https://ghe.example.org/api/v3");
    expect(apiBaseUrl("forgetwo", "git.example.org:8443")).toBe("https://git.example.org:8443/api/v4");
    expect(gitRemoteUrl({ text: "", host: "gitlab.com", namespace: "a/b", project: "c" })).toBe(
      "https://gitlab.com/a/b/c.git",
    );
  });
});

describe("resolveForgeTarget", () => {
  it("infers the forge of the public hosts and requires it for another", () => {
    expect(resolveForgeTarget({ indexRepo: "acme/index" })).toMatchObject({
      forge: "forgeone",
      transport: "api",
      apiBase: "https://api.github.com",
    });
    expect(resolveForgeTarget({ indexRepo: "gitlab.com/a/b/index" }).forge).toBe("forgetwo");
    expect(() => resolveForgeTarget({ indexRepo: "git.example.org/a/index" })).toThrow(/--forge/);
    expect(
      resolveForgeTarget({ indexRepo: "git.example.org/a/index", forge: "forgetwo", transport: "git" }),
    ).toMatchObject({
      forge: "forgetwo",
      transport: "git",
    });
  });

  it.each([
    [{ indexRepo: "acme/index", forge: "forgetwo" }, "is forgeone"],
    [{ indexRepo: "acme/index", forge: "other" }, "expected forgeone or forgetwo"],
    [{ indexRepo: "ghe.example.org/a/b/index", forge: "forgeone" }, "nested namespace"],
    [{ indexRepo: "acme/index", fork: "me/sub/index" }, "nested namespace"],
    [{ indexRepo: "acme/index", fork: "gitlab.com/me/index" }, "one host"],
    [{ indexRepo: "acme/index", fork: "Acme/Index" }, "index repository itself"],
    [{ indexRepo: "acme/index", transport: "git" }, "only for forgetwo"],
    [
      { indexRepo: "gitlab.com/acme/index", fork: "gitlab.com/me/index", transport: "git" },
      "cannot be combined with --fork",
    ],
    [{ indexRepo: "acme/index", transport: "rsync" }, "expected api or git"],
  ])("%j is a usage error", (input, said) => {
    expect(() => resolveForgeTarget(input)).toThrow(
      expect.objectContaining({ exitCode: 64, message: expect.stringContaining(said) }),
    );
  });
});
