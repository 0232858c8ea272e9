import { describe, expect, it } from "vitest";
import type { PlanVersion } from "../documents/plan-document.js";
import { versionJobOf } from "./version-job.js";

const entry: PlanVersion = {
  version: "slim-1.2.0-rc1_20260101120000",
  source_version: "1.2.0-rc1",
  variant: "slim",
  kind: "backfill",
  platforms: ["linux/arm64+libc.musl"],
  assets: [
    {
      platform: "linux/arm64+libc.musl",
      asset_name: "tool-arm64.tgz",
      url: "https://example.test/tool-arm64.tgz",
      digest: `sha256:${"a".repeat(64)}`,
    },
  ],
  refused: [{ platform: "linux/amd64", message: "ambiguous asset" }],
  carried: ["darwin/arm64"],
  own_tags: ["slim-1.2.0-rc1_20251201000000"],
};

describe("a plan entry as the engine's version job", () => {
  it("builds the plan's assets under its primary tag and carries what earlier runs published", () => {
    expect(versionJobOf(entry)).toEqual({
      version: "1.2.0-rc1",
      prerelease: true,
      variant: "slim",
      primary_tag: "slim-1.2.0-rc1_20260101120000",
      pairs: [
        {
          version: "1.2.0-rc1",
          platform: "linux/arm64+libc.musl",
          variant: "slim",
          column: "slim:linux/arm64+libc.musl",
          asset: {
            name: "tool-arm64.tgz",
            url: "https://example.test/tool-arm64.tgz",
            digest: `sha256:${"a".repeat(64)}`,
          },
        },
      ],
      refused: [{ platform: "linux/amd64", column: "slim:linux/amd64", message: "ambiguous asset" }],
      skipped: [],
      carried: ["darwin/arm64"],
      own_tags: ["slim-1.2.0-rc1_20251201000000"],
      retag: false,
    });
  });

  it("leaves optional parts out for a plain new version", () => {
    const job = versionJobOf({
      version: "2.0.0",
      source_version: "2.0.0",
      kind: "new",
      platforms: ["linux/amd64"],
      assets: [{ platform: "linux/amd64", asset_name: "t", url: "https://example.test/t" }],
    });
    expect(job).not.toHaveProperty("variant");
    expect(job).not.toHaveProperty("own_tags");
    expect(job.prerelease).toBe(false);
    expect(job.pairs[0]?.asset).toEqual({ name: "t", url: "https://example.test/t" });
    expect(job.pairs[0]?.column).toBe("linux/amd64");
  });
});
