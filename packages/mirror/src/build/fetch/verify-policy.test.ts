import { ExitCode } from "@pkg/common";
import { describe, expect, test } from "vitest";
import type { SourceType } from "../../spec/source.js";
import { DEFAULT_VERIFY, type Verify } from "../../spec/verify.js";
import { parseDigest } from "./digest.js";
import { checkDownload, digestPolicyFor, planVerification } from "./verify-policy.js";

const verify: Verify = { github_asset_digest: "require", url_index_digest: "off" };

describe("digestPolicyFor", () => {
  test.each<[SourceType, ReturnType<typeof digestPolicyFor>]>([
    ["forgeone_release", { policy: "require", key: "verify.github_asset_digest" }],
    ["url_index", { policy: "off", key: "verify.url_index_digest" }],
    ["pylock", { policy: "off" }],
    ["pypi", { policy: "off" }],
  ])("%s", (type, applied) => {
    expect(digestPolicyFor(verify, type)).toEqual(applied);
  });

  test("the defaults verify declared digests of both source kinds", () => {
    expect(digestPolicyFor(DEFAULT_VERIFY, "forgeone_release").policy).toBe("if_present");
    expect(digestPolicyFor(DEFAULT_VERIFY, "url_index").policy).toBe("if_present");
  });
});

describe("parseDigest", () => {
  test("prefixed and bare forms, any hex case; unknown algorithms and wrong lengths are refused", () => {
    const hex = "ab".repeat(32);
    expect(parseDigest(`sha256:${hex.toUpperCase()}`)).toEqual({ algorithm: "sha256", hex });
    expect(parseDigest(hex)).toEqual({ algorithm: "sha256", hex });
    expect(parseDigest(`sha512:${"0".repeat(128)}`)?.algorithm).toBe("sha512");
    expect(parseDigest(`md5:${"0".repeat(32)}`)).toBeUndefined();
    expect(parseDigest(`sha256:${"0".repeat(63)}`)).toBeUndefined();
    expect(parseDigest("sha256:xyz")).toBeUndefined();
  });
});

describe("planVerification", () => {
  const applied = { policy: "if_present", key: "verify.url_index_digest" } as const;

  test("a declared digest that cannot be read is a data error naming the asset", () => {
    expect(() =>
      planVerification({ name: "t.tgz", url: "http://h/t.tgz", digest: "md5:00" }, applied, undefined),
    ).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.Data,
        message: expect.stringMatching(/^asset t.tgz: the declared digest md5:00/),
      }),
    );
  });

  test("a sha512 declaration is checked with sha512", () => {
    const plan = planVerification(
      { name: "t.tgz", url: "http://h/t.tgz", digest: `sha512:${"1".repeat(128)}` },
      applied,
      undefined,
    );
    expect(() => checkDownload(plan, new Map([["sha512", "1".repeat(128)]]))).not.toThrow();
    expect(() => checkDownload(plan, new Map([["sha512", "2".repeat(128)]]))).toThrow(/digest mismatch/);
  });
});
