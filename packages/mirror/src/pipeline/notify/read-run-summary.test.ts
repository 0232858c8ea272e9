import { PkgError } from "@pkg/common";
import { describe, expect, it } from "vitest";
import { parseRunSummary } from "./read-run-summary.js";

const good = {
  schema_version: 1,
  mirror: "tool",
  target: "ghcr.io/acme/tool",
  run_url: "https://forge.example/runs/1",
  versions: [
    {
      version: "1.0.0",
      status: "partial",
      platforms_pushed: ["linux/amd64"],
      platforms_failed: [
        { platform: "linux/arm64", reason: "test_failed", message: "failed", job_url: "https://x/j" },
      ],
      test_failures: [{ platform: "linux/arm64", container: "native", test: "smoke", message: "exit 1" }],
      platforms_excluded: [{ platform: "darwin/amd64" }],
      cascade_tags_written: ["1.0.0"],
      layer_reuse: { mounted: 0, uploaded: 1, verified: 0 },
    },
  ],
  announce: { package: "acme/tool", status: "announced", tags: ["1.0.0"] },
  any_red: true,
  any_new_green: true,
};

type Doc = Record<string, unknown>;
const withVersion = (change: Doc): Doc => ({ ...good, versions: [{ ...good.versions[0], ...change }] });

function failure(text: string): PkgError {
  try {
    parseRunSummary(text, "out/run-summary.json");
  } catch (error) {
    if (error instanceof PkgError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("parseRunSummary", () => {
  it("reads a well-formed summary as it is", () => {
    expect(parseRunSummary(JSON.stringify(good), "f")).toEqual(good);
  });

  it.each([
    { name: "not JSON", text: "{not json", problem: /: not a run summary: not JSON \(/ },
    { name: "an array", text: "[]", problem: /: not a run summary: the document: expected an object$/ },
    {
      name: "schema_version 2",
      doc: { ...good, schema_version: 2 },
      problem: /: schema_version 2; this pkg-mirror reads schema_version 1$/,
    },
    {
      name: "no schema_version",
      doc: { ...good, schema_version: undefined },
      problem: /: no schema_version;/,
    },
    {
      name: "schema_version as text",
      doc: { ...good, schema_version: "1" },
      problem: /: schema_version "1";/,
    },
    { name: "target missing", doc: { ...good, target: undefined }, problem: /: target: expected a string$/ },
    {
      name: "versions not an array",
      doc: { ...good, versions: {} },
      problem: /: versions: expected an array$/,
    },
    {
      name: "an unknown version status",
      doc: withVersion({ status: "done" }),
      problem: /: versions\[0\]\.status: expected one of published, partial, failed, skipped_existing$/,
    },
    {
      name: "a failure without a reason",
      doc: withVersion({ platforms_failed: [{ platform: "linux/arm64", message: "m" }] }),
      problem: /: versions\[0\]\.platforms_failed\[0\]\.reason: expected one of /,
    },
    {
      name: "a pushed platform that is not a string",
      doc: withVersion({ platforms_pushed: [1] }),
      problem: /: versions\[0\]\.platforms_pushed\[0\]: expected a string$/,
    },
    {
      name: "an exclude reason that is not a string",
      doc: withVersion({ platforms_excluded: [{ platform: "darwin/amd64", reason: 3 }] }),
      problem: /: versions\[0\]\.platforms_excluded\[0\]\.reason: expected a string$/,
    },
    {
      name: "an unknown announce status",
      doc: { ...good, announce: { package: "acme/tool", status: "done" } },
      problem: /: announce\.status: expected one of announced, /,
    },
    {
      name: "any_red missing",
      doc: { ...good, any_red: undefined },
      problem: /: any_red: expected true or false$/,
    },
  ])("$name: exit 65 naming the file and the problem", ({ text, doc, problem }) => {
    const error = failure(text ?? JSON.stringify(doc));
    expect(error.exitCode).toBe(65);
    expect(error.message).toMatch(/^out\/run-summary\.json: not a run summary: /);
    expect(error.message).toMatch(problem);
  });
});
