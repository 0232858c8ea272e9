import { describe, expect, it } from "vitest";
import type { PlanVersion } from "../documents/plan-document.js";
import type { PairDecision, VersionDecision } from "./decide.js";
import type { PublishedDecision } from "./publish-decided.js";
import { announceTags, ciLinks, runSummary, versionRow } from "./summary.js";

const entry: PlanVersion = {
  version: "1.1.0_20260101120000",
  source_version: "1.1.0",
  kind: "new",
  platforms: ["linux/amd64", "linux/arm64"],
  assets: [],
  excluded: [{ platform: "darwin/arm64", reason: "no build" }],
};
const green = (platform: string): PairDecision => ({
  platform,
  green: true,
  layers: [{ path: "b" }],
  metadata: "m",
  testFailures: [],
});
const red = (platform: string): PairDecision => ({
  platform,
  green: false,
  failure: { platform, reason: "test_failed", message: "broken failed", job_url: "https://ci.test/job/7" },
  testFailures: [{ platform, container: "native", test: "broken", message: "exit 1" }],
});
const decided = (...pairs: PairDecision[]): VersionDecision => ({ entry, pairs });
const published = (over: Partial<PublishedDecision> = {}): PublishedDecision => ({
  pushed: [],
  existing: [],
  pushFailures: [],
  tagsWritten: [],
  layerReuse: { mounted: 0, uploaded: 1, verified: 0 },
  ...over,
});

describe("a version's run-summary row", () => {
  it.each([
    ["published", [green("linux/amd64"), green("linux/arm64")], { pushed: ["linux/amd64", "linux/arm64"] }],
    ["partial", [green("linux/amd64"), red("linux/arm64")], { pushed: ["linux/amd64"] }],
    ["failed", [red("linux/amd64"), red("linux/arm64")], {}],
    [
      "skipped_existing",
      [green("linux/amd64"), green("linux/arm64")],
      { existing: ["linux/amd64", "linux/arm64"] },
    ],
    ["partial", [green("linux/amd64"), red("linux/arm64")], { existing: ["linux/amd64"] }],
    [
      "failed",
      [green("linux/amd64")],
      { pushFailures: [{ platform: "linux/amd64", message: "registry said 503" }] },
    ],
  ] as Array<[string, PairDecision[], Partial<PublishedDecision>]>)("is %s for %j", (status, pairs, over) => {
    expect(versionRow(decided(...pairs), published(over)).status).toBe(status);
  });

  it("names each red platform with its reason, job link and failed tests, and the broken excludes", () => {
    const row = versionRow(
      decided(green("linux/amd64"), red("linux/arm64")),
      published({ pushed: ["linux/amd64"], tagsWritten: ["1.1.0_20260101120000"] }),
    );
    expect(row).toEqual({
      version: "1.1.0_20260101120000",
      status: "partial",
      platforms_pushed: ["linux/amd64"],
      platforms_failed: [
        {
          platform: "linux/arm64",
          reason: "test_failed",
          message: "broken failed",
          job_url: "https://ci.test/job/7",
        },
      ],
      test_failures: [{ platform: "linux/arm64", container: "native", test: "broken", message: "exit 1" }],
      platforms_excluded: [{ platform: "darwin/arm64", reason: "no build" }],
      cascade_tags_written: ["1.1.0_20260101120000"],
      layer_reuse: { mounted: 0, uploaded: 1, verified: 0 },
    });
  });

  it("reports a push that failed for good as push_error", () => {
    const row = versionRow(
      decided(green("linux/amd64")),
      published({ pushFailures: [{ platform: "linux/amd64", message: "gave up after 4 attempts" }] }),
    );
    expect(row.platforms_failed).toEqual([
      { platform: "linux/amd64", reason: "push_error", message: "gave up after 4 attempts" },
    ]);
  });
});

describe("the run summary", () => {
  const row = (
    version: string,
    status: "published" | "partial" | "failed" | "skipped_existing",
    tags: string[],
  ) => ({
    version,
    status,
    platforms_pushed: status === "failed" || status === "skipped_existing" ? [] : ["linux/amd64"],
    platforms_failed: [],
    test_failures: [],
    platforms_excluded: [],
    cascade_tags_written: tags,
    layer_reuse: { mounted: 0, uploaded: 0, verified: 0 },
  });

  it("announces the union of tags written by versions that published something, in run order", () => {
    expect(
      announceTags([
        row("1.0.0_1", "published", ["1.0.0_1", "1.0.0", "1.0", "1", "latest"]),
        row("1.1.0_1", "partial", ["1.1.0_1"]),
        row("1.2.0_1", "failed", []),
        row("1.3.0_1", "skipped_existing", ["1.3.0_1", "latest"]),
      ]),
    ).toEqual(["1.0.0_1", "1.0.0", "1.0", "1", "latest", "1.1.0_1"]);
  });

  it("is red for a partial or failed version, or a failed announce, and green-new when something was pushed", () => {
    const head = { mirror: "hello", target: "r/acme/hello" };
    expect(runSummary(head, [row("1", "published", [])])).toMatchObject({
      any_red: false,
      any_new_green: true,
    });
    expect(runSummary(head, [row("1", "partial", [])])).toMatchObject({ any_red: true, any_new_green: true });
    expect(runSummary(head, [row("1", "skipped_existing", [])])).toMatchObject({
      any_red: false,
      any_new_green: false,
    });
    expect(
      runSummary(head, [row("1", "published", [])], {
        package: "acme/hello",
        status: "failed",
        error: "403",
      }),
    ).toMatchObject({ any_red: true });
    expect(runSummary(head, [])).not.toHaveProperty("announce");
  });

  it("links the run and the push job from the CI's variables, and nothing outside CI", () => {
    expect(
      ciLinks({
        GITHUB_SERVER_URL: "https://forge.test",
        GITHUB_REPOSITORY: "acme/mirrors",
        GITHUB_RUN_ID: "42",
        PKG_MIRROR_JOB_URL: "https://forge.test/acme/mirrors/actions/runs/42/job/9",
      }),
    ).toEqual({
      run_url: "https://forge.test/acme/mirrors/actions/runs/42",
      push_job_url: "https://forge.test/acme/mirrors/actions/runs/42/job/9",
    });
    expect(ciLinks({ CI_PIPELINE_URL: "https://lab.test/p/1", CI_JOB_URL: "https://lab.test/j/2" })).toEqual({
      run_url: "https://lab.test/p/1",
      push_job_url: "https://lab.test/j/2",
    });
    expect(ciLinks({})).toEqual({});
  });
});
