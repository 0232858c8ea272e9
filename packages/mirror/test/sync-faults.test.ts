import { randomFaults } from "@pkg/testkit";
import { describe, expect, it } from "vitest";
import { helloAssetKeys, helloForge, runnersFor, sameKind } from "./support/hello-releases.js";
import { useSyncEnv } from "./support/sync-env.js";
import { buildTimeOf, expectEveryTagComplete, listTags, syncReport, syncSpec } from "./support/sync-run.js";

const versions = ["1.0.0", "1.1.0"];
const platforms = ["linux/amd64", "linux/arm64"];
const kinds = sameKind(platforms, "tar.gz");

const env = useSyncEnv("pkg-mirror-faults-", {
  proxy: true,
  forge: helloForge(versions, kinds),
});

describe("pkg-mirror package sync through a faulty registry", () => {
  it("completes with retries, and no tag points at a missing blob", async () => {
    // Faults start once planning has read the registry: the pushes meet drops, 5xx and 429s. Each
    // one costs a real backoff (1 s, then 2 s) in the CLI, hence so few.
    const faults = randomFaults({
      seed: 11,
      drop: 0.15,
      serverError: 0.15,
      tooManyRequests: 0.1,
      maxFaults: 2,
    });
    let pushing = false;
    env.proxy.setPlan((request, index) => {
      pushing ||= request.method !== "GET" && request.method !== "HEAD";
      return pushing ? faults(request, index) : "pass";
    });
    const yaml = syncSpec(env.proxy.host, "acme/faulty", {
      ...helloAssetKeys(kinds),
      platforms: runnersFor(platforms),
    });
    const { report, stderr } = await syncReport(env.work.path, "faulty.yml", yaml, env.forge);
    expect(report.counts).toMatchObject({ published: 4, failed: 0 });

    const injected = env.proxy.requests.filter((r) => r.status === undefined || r.status >= 429);
    expect(injected.length).toBeGreaterThan(0);
    expect(stderr).toMatch(/push attempt 2\/4: /);
    const attempts = report.versions.flatMap((v) => v.platforms.map((p) => p.attempts));
    expect(Math.max(...attempts)).toBeGreaterThan(1);

    const ts = buildTimeOf(report);
    expect(await listTags(env.registry.url, "acme/faulty")).toEqual(
      ["1", "1.0", "1.0.0", `1.0.0_${ts}`, "1.1", "1.1.0", `1.1.0_${ts}`, "latest"].sort(),
    );
    await expectEveryTagComplete(env.registry.url, "acme/faulty");
  });
});
