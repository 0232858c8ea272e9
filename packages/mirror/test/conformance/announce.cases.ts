import { expect } from "vitest";
import { type ConformanceCase, type SpecObject, spec } from "../support/spec-case.js";

type Json = Exclude<SpecObject[string], undefined>;

const announce = (value: Json, more: SpecObject = {}) => spec({ announce: value, ...more });
const pkg = "bazelbuild/bazelisk";

function announceOf(s: Record<string, unknown>): Record<string, unknown> {
  return s.announce as Record<string, unknown>;
}

export const cases: ConformanceCase[] = [
  {
    rule: "announce: package and a hostless fork; forge inferred forgeone, transport defaults to api",
    yaml: announce({ package: pkg, fork: "ocx-contrib/index" }),
    exit: 0,
    check: (s) =>
      expect(s.announce).toEqual({
        package: pkg,
        fork: { text: "ocx-contrib/index", host: "github.com", namespace: "ocx-contrib", project: "index" },
        forge: "forgeone",
        transport: "api",
      }),
  },
  {
    rule: "announce: package alone loads (index_repo defaults to the tool's public index on forgeone)",
    yaml: announce({ package: pkg }),
    exit: 0,
    check: (s) => expect(s.announce).toEqual({ package: pkg, forge: "forgeone", transport: "api" }),
  },
  {
    rule: "announce.package: lowercase letters, digits, '.', '_' and '-'",
    yaml: announce({ package: "my_org.tools/tool-x.2" }),
    exit: 0,
  },
  {
    rule: "announce.forge: inferred forgetwo for gitlab.com, where nested namespaces are allowed",
    yaml: announce({ package: pkg, index_repo: "gitlab.com/group/sub/index" }),
    exit: 0,
    check: (s) =>
      expect(announceOf(s)).toMatchObject({
        forge: "forgetwo",
        index_repo: { host: "gitlab.com", namespace: "group/sub", project: "index" },
      }),
  },
  {
    rule: "announce.index_repo: github.com written out is forgeone",
    yaml: announce({ package: pkg, index_repo: "github.com/acme/index" }),
    exit: 0,
    check: (s) => expect(announceOf(s).forge).toBe("forgeone"),
  },
  {
    rule: "announce.forge: a self-hosted host with forge given loads (fork on the same host)",
    yaml: announce({
      package: pkg,
      index_repo: "git.example.com:8443/platform/index",
      fork: "git.example.com:8443/bot/index",
      forge: "forgetwo",
    }),
    exit: 0,
    check: (s) =>
      expect(announceOf(s)).toMatchObject({ forge: "forgetwo", fork: { host: "git.example.com:8443" } }),
  },
  {
    rule: "announce.forge: a given forge that agrees with the public host is fine",
    yaml: announce({ package: pkg, index_repo: "gitlab.com/acme/index", forge: "forgetwo" }),
    exit: 0,
  },
  {
    rule: "announce.transport: git on forgetwo without a fork",
    yaml: announce({ package: pkg, index_repo: "gitlab.com/acme/index", transport: "git" }),
    exit: 0,
    check: (s) => expect(announceOf(s).transport).toBe("git"),
  },
  {
    rule: "announce.schedule: a cron is kept verbatim",
    yaml: announce({ package: pkg, schedule: "17 4 * * MON-FRI" }),
    exit: 0,
    check: (s) => expect(announceOf(s).schedule).toBe("17 4 * * MON-FRI"),
  },
  {
    rule: "announce.schedule: the same cron as versions.poll_interval loads with an advisory warning",
    yaml: announce({ package: pkg, schedule: "0 6 * * *" }, { versions: { poll_interval: "0  6 * * *" } }),
    exit: 0,
    check: (_s, warnings) =>
      expect(warnings).toContainEqual(
        expect.objectContaining({
          keyPath: "announce.schedule",
          message: expect.stringMatching(/different cron/),
        }),
      ),
  },
  {
    rule: "announce.schedule: a cron other than versions.poll_interval gives no warning",
    yaml: announce({ package: pkg, schedule: "0 7 * * *" }, { versions: { poll_interval: "0 6 * * *" } }),
    exit: 0,
    check: (_s, warnings) => expect(warnings.filter((w) => w.keyPath.startsWith("announce"))).toEqual([]),
  },
  {
    rule: "announce: package is required",
    yaml: announce({ fork: "acme/index" }),
    exit: 65,
    path: "announce",
    message: /missing required key "package"/,
  },
  {
    rule: "announce.package: a bare tool name is refused",
    yaml: announce({ package: "bazelisk" }),
    exit: 65,
    path: "announce.package",
    message: /bare name/,
  },
  {
    rule: "announce.package: uppercase is refused",
    yaml: announce({ package: "BazelBuild/bazelisk" }),
    exit: 65,
    path: "announce.package",
    message: /lowercase/,
  },
  {
    rule: "announce.package: three segments are refused",
    yaml: announce({ package: "ocx.sh/bazelbuild/bazelisk" }),
    exit: 65,
    path: "announce.package",
  },
  {
    rule: "announce.fork: a pasted URL is refused",
    yaml: announce({ package: pkg, fork: "https://github.com/ocx-contrib/index" }),
    exit: 65,
    path: "announce.fork",
    message: /is a URL/,
  },
  {
    rule: "announce.index_repo: an scp-style git URL is refused",
    yaml: announce({ package: pkg, index_repo: "git@gitlab.com:acme/index.git" }),
    exit: 65,
    path: "announce.index_repo",
    message: /is a URL/,
  },
  {
    rule: "announce.fork: a single segment is not NAMESPACE/PROJECT",
    yaml: announce({ package: pkg, fork: "index" }),
    exit: 65,
    path: "announce.fork",
    message: /\[HOST\/\]NAMESPACE\/PROJECT/,
  },
  {
    rule: "announce.index_repo: a bad host is refused",
    yaml: announce({ package: pkg, index_repo: "git_lab.example.com/acme/index", forge: "forgetwo" }),
    exit: 65,
    path: "announce.index_repo",
    message: /not a host name/,
  },
  {
    rule: "announce.forge: only forgeone or forgetwo",
    yaml: announce({ package: pkg, index_repo: "git.example.com/acme/index", forge: "github" }),
    exit: 65,
    path: "announce.forge",
    message: /expected one of "forgeone", "forgetwo"/,
  },
  {
    rule: "announce.forge: required for a self-hosted host",
    yaml: announce({ package: pkg, index_repo: "git.example.com/acme/index" }),
    exit: 65,
    path: "announce.index_repo",
    message: /self-hosted forge; set forge/,
  },
  {
    rule: "announce.forge: contradicting a public host is refused",
    yaml: announce({ package: pkg, index_repo: "gitlab.com/acme/index", forge: "forgeone" }),
    exit: 65,
    path: "announce.forge",
    message: /gitlab\.com is forgetwo/,
  },
  {
    rule: "announce.forge: forgetwo without index_repo contradicts the default index",
    yaml: announce({ package: pkg, forge: "forgetwo" }),
    exit: 65,
    path: "announce.forge",
    message: /set index_repo/,
  },
  {
    rule: "announce.index_repo: a nested namespace on forgeone is refused",
    yaml: announce({ package: pkg, index_repo: "github.com/acme/tools/index" }),
    exit: 65,
    path: "announce.index_repo",
    message: /nested namespace/,
  },
  {
    rule: "announce.fork: a nested namespace on forgeone is refused",
    yaml: announce({ package: pkg, fork: "acme/tools/index" }),
    exit: 65,
    path: "announce.fork",
    message: /nested namespace/,
  },
  {
    rule: "announce.fork: on another host than index_repo is refused",
    yaml: announce({ package: pkg, index_repo: "gitlab.com/acme/index", fork: "github.com/bot/index" }),
    exit: 65,
    path: "announce.fork",
    message: /both must be on one host/,
  },
  {
    rule: "announce.fork: a fork on gitlab.com against the default index is refused",
    yaml: announce({ package: pkg, fork: "gitlab.com/bot/index" }),
    exit: 65,
    path: "announce.fork",
  },
  {
    rule: "announce.transport: git on forgeone is refused",
    yaml: announce({ package: pkg, transport: "git" }),
    exit: 65,
    path: "announce.transport",
    message: /only for forgetwo/,
  },
  {
    rule: "announce.transport: git with a fork is refused",
    yaml: announce({
      package: pkg,
      index_repo: "gitlab.com/acme/index",
      fork: "gitlab.com/bot/index",
      transport: "git",
    }),
    exit: 65,
    path: "announce.transport",
    message: /cannot be combined with fork/,
  },
  {
    rule: "announce.transport: only api or git",
    yaml: announce({ package: pkg, transport: "ssh" }),
    exit: 65,
    path: "announce.transport",
    message: /expected one of "api", "git"/,
  },
  {
    rule: "announce.schedule: a character outside the cron charset is refused",
    yaml: announce({ package: pkg, schedule: "@daily" }),
    exit: 65,
    path: "announce.schedule",
  },
  {
    rule: "announce.schedule: an empty schedule is refused",
    yaml: announce({ package: pkg, schedule: "" }),
    exit: 65,
    path: "announce.schedule",
    message: /must not be empty/,
  },
  {
    rule: "announce: an unknown key is refused naming the closest",
    yaml: announce({ package: pkg, index_rep: "acme/index" }),
    exit: 65,
    path: "announce.index_rep",
    message: /did you mean "index_repo"/,
  },
  {
    rule: "announce: must be a mapping",
    yaml: announce(pkg),
    exit: 65,
    path: "announce",
    message: /expected a mapping/,
  },
];
