import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, spec } from "../support/spec-case.js";

const verify = (fields: Fields) => spec({ verify: fields });

const policyRows = (key: "github_asset_digest" | "url_index_digest"): ConformanceCase[] => [
  ...(
    [
      ["off", "off"],
      ["if_present", "if_present"],
      ["require", "require"],
      [false, "off"],
      [true, "if_present"],
    ] as const
  ).map(
    ([value, policy]): ConformanceCase => ({
      rule: `verify.${key}: ${String(value)} is ${policy}`,
      yaml: verify({ [key]: value }),
      exit: 0,
      check: (s) => expect((s.verify as Record<string, unknown>)[key]).toBe(policy),
    }),
  ),
  {
    rule: `verify.${key}: another word is refused, naming the closest value`,
    yaml: verify({ [key]: "required" }),
    exit: 65,
    path: `verify.${key}`,
    message: /did you mean "require"/,
  },
  {
    rule: `verify.${key}: not a number`,
    yaml: verify({ [key]: 1 }),
    exit: 65,
    path: `verify.${key}`,
  },
];

export const cases: ConformanceCase[] = [
  {
    rule: "verify: an empty mapping verifies declared digests (if_present) and reads no checksums file",
    yaml: verify({}),
    exit: 0,
    check: (s) =>
      expect(s.verify).toEqual({ github_asset_digest: "if_present", url_index_digest: "if_present" }),
  },
  {
    rule: "verify: one policy given leaves the other at if_present",
    yaml: verify({ url_index_digest: "require" }),
    exit: 0,
    check: (s) =>
      expect(s.verify).toEqual({ github_asset_digest: "if_present", url_index_digest: "require" }),
  },
  ...policyRows("github_asset_digest"),
  ...policyRows("url_index_digest"),
  {
    rule: "verify.checksums_file: an https URL",
    yaml: verify({ checksums_file: "https://example.com/releases/SHA256SUMS" }),
    exit: 0,
    check: (s) => expect((s.verify as Fields).checksums_file).toBe("https://example.com/releases/SHA256SUMS"),
  },
  {
    rule: "verify.checksums_file: not a bare file name",
    yaml: verify({ checksums_file: "SHA256SUMS" }),
    exit: 65,
    path: "verify.checksums_file",
    message: /http/,
  },
  {
    rule: "verify.checksums_file: no credentials in the URL (and the message never echoes them)",
    yaml: verify({ checksums_file: "https://bot:s3cr3t-token@example.com/SHA256SUMS" }),
    exit: 65,
    path: "verify.checksums_file",
    message: /^(?!.*s3cr3t).*credentials/,
  },
  {
    rule: "verify.checksums_file: http or https only",
    yaml: verify({ checksums_file: "ftp://example.com/SHA256SUMS" }),
    exit: 65,
    path: "verify.checksums_file",
    message: /http or https/,
  },
  {
    rule: "verify: unknown keys are refused",
    yaml: verify({ forge_asset_digest: "require" }),
    exit: 65,
    path: "verify.forge_asset_digest",
    message: /unknown key/,
  },
  {
    rule: "verify: a near-miss key names the known one",
    yaml: verify({ checksum_file: "https://example.com/SHA256SUMS" }),
    exit: 65,
    path: "verify.checksum_file",
    message: /did you mean "checksums_file"/,
  },
  {
    rule: "verify: must be a mapping",
    yaml: spec({ verify: true }),
    exit: 65,
    path: "verify",
    message: /expected a mapping/,
  },
];
