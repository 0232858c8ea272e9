// The plan is the contract between the steps of a run: written as JSON and read back, it is the
// same plan, and prepare and push carry it out as sync does, under the primary tags it decided.
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { silentLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { openRegistry } from "@pkg/oci";
import { describe, expect, it } from "vitest";
import { syncJobs } from "../src/pipeline/sync.js";
import { planJobs, type RunJobs } from "../src/plan/jobs.js";
import { planRun } from "../src/plan/plan-run.js";
import { loadMirrorSpec } from "../src/spec/loader.js";
import { helloAssetKeys, helloForge, sameKind } from "./support/hello-releases.js";
import { useSyncEnv } from "./support/sync-env.js";
import { syncSpec } from "./support/sync-run.js";

const kinds = sameKind(["linux/amd64", "linux/arm64"], "tar.gz");
const env = useSyncEnv("pkg-mirror-jobs-", { forge: helloForge(["1.0.0", "1.1.0"], kinds) });

describe("the run's jobs", () => {
  it("survive JSON, and sync runs from the copy read back, pushing under the tags the plan decided", async () => {
    const file = join(env.work.path, "jobs.yml");
    await writeFile(file, syncSpec(env.registry.host, "jobs/hello", helloAssetKeys(kinds)));
    const loaded = await loadMirrorSpec(file, { repoRoot: env.work.path });
    const processEnv = { PKG_FORGEONE_API_URL: env.forge.url };
    const http = createHttpClient({ env: processEnv });
    const target = openRegistry({ host: env.registry.host, repository: "jobs/hello" }, { env: {} });
    const options = { env: processEnv, log: silentLogger, http, target };
    try {
      const run = await planRun(loaded, options);
      const jobs = planJobs(run, new Date("2025-03-04T05:06:07Z"));
      const copy = JSON.parse(JSON.stringify(jobs)) as RunJobs;
      expect(copy).toStrictEqual(jobs);
      expect(copy.versions.map((v) => [v.version, v.primary_tag, v.pairs.map((p) => p.asset.name)])).toEqual([
        [
          "1.0.0",
          "1.0.0_20250304050607",
          ["hello-1.0.0-linux-amd64.tar.gz", "hello-1.0.0-linux-arm64.tar.gz"],
        ],
        [
          "1.1.0",
          "1.1.0_20250304050607",
          ["hello-1.1.0-linux-amd64.tar.gz", "hello-1.1.0-linux-arm64.tar.gz"],
        ],
      ]);

      const workDir = join(env.work.path, "work");
      const results = await syncJobs(copy, { ...options, workDir, spec: run.spec, specDir: loaded.specDir });
      expect(results.map((r) => [r.version, r.primary_tag, r.platforms.map((p) => p.status)])).toEqual([
        ["1.0.0", "1.0.0_20250304050607", ["published", "published"]],
        ["1.1.0", "1.1.0_20250304050607", ["published", "published"]],
      ]);
      expect((await target.listTags()).sort()).toEqual(
        [
          "1",
          "1.0",
          "1.0.0",
          "1.0.0_20250304050607",
          "1.1",
          "1.1.0",
          "1.1.0_20250304050607",
          "latest",
        ].sort(),
      );
      // every pushed pair's work directory is gone
      expect(await readdir(join(workDir, "hello"))).toEqual([]);
    } finally {
      await http.close();
    }
  });
});
