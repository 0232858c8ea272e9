import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { IndexFormatError } from "../errors.js";
import type { Description } from "../types.js";
import { buildPackageRoot, readCommittedRoot } from "./root-writer.js";

const ocxIndex = fileURLToPath(new URL("../../../../../shared/fixtures/ocx-index/", import.meta.url));
const NOW = new Date("2026-09-01T12:34:56.789Z");
const digest = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

function committed(name: string) {
  const file = join(ocxIndex, "p", `${name}.json`);
  return readCommittedRoot(readFileSync(file), file);
}

const NEW_ROOT = {
  name: "example.org/acme/tool",
  repository: "oci://registry.example.org/acme/tool",
  owners: [{ github: "alice", github_id: 7 }],
};
const DESC: Description = { digest: digest(99), title: "Tool", description: "Does things", keywords: ["a"] };

describe("buildPackageRoot on the real published roots", () => {
  const names = readdirSync(join(ocxIndex, "p"), { recursive: true })
    .map(String)
    .filter((path) => /^[^/]+\/[^/]+\.json$/.test(path))
    .map((path) => path.slice(0, -5));

  it.each(names)("%s: re-observing every tag as it is gives the same bytes", (name) => {
    const root = committed(name);
    const observed = Object.entries(root.root.tags).map(([tag, entry]) => ({ tag, content: entry.content }));
    for (const mode of ["merge", "replace"] as const) {
      const result = buildPackageRoot({ committed: root, mode, observed, desc: root.root.desc, now: NOW });
      expect(Buffer.from(result.bytes).equals(Buffer.from(root.bytes))).toBe(true);
      expect(result.changedTags).toEqual([]);
    }
  });
});

describe("buildPackageRoot", () => {
  const cmake = committed("kitware/cmake");
  const tags = Object.keys(cmake.root.tags);

  it("appends a new tag at the end with a fixed-width observed time, keeping every other entry", () => {
    const result = buildPackageRoot({
      committed: cmake,
      mode: "merge",
      observed: [{ tag: "9.9.9", content: digest(1) }],
      desc: cmake.root.desc,
      now: NOW,
    });
    expect(Object.keys(result.root.tags).sort()).toEqual([...tags, "9.9.9"].sort());
    expect(text(result.bytes)).toContain(
      `"9.9.9": {\n      "content": "${digest(1)}",\n      "observed": "2026-09-01T12:34:56Z"\n    }\n  }\n}\n`,
    );
    expect(result.changedTags).toEqual(["9.9.9"]);
    for (const tag of tags) expect(result.root.tags[tag]).toEqual(cmake.root.tags[tag]);
    const { tags: _new, ...governance } = result.root;
    const { tags: _old, ...committedGovernance } = cmake.root;
    expect(governance).toEqual(committedGovernance);
  });

  it("moves a tag's content and time in place and keeps its yank marker", () => {
    const source = JSON.parse(text(cmake.bytes)) as { tags: Record<string, Record<string, unknown>> };
    const [first, second] = tags as [string, string];
    source.tags[first] = {
      ...source.tags[first],
      yanked: { reason: "broken build", at: "2026-08-03T00:00:00Z" },
    };
    const yanked = readCommittedRoot(Buffer.from(JSON.stringify(source)), "root.json");
    const result = buildPackageRoot({
      committed: yanked,
      mode: "merge",
      observed: [{ tag: first, content: digest(2) }],
      desc: cmake.root.desc,
      now: NOW,
    });
    expect(result.root.tags[first]).toEqual({
      content: digest(2),
      observed: "2026-09-01T12:34:56Z",
      yanked: { reason: "broken build", at: "2026-08-03T00:00:00Z" },
    });
    expect(result.root.tags[second]).toEqual(cmake.root.tags[second]);
    expect(Object.keys(result.root.tags)).toEqual(Object.keys(yanked.root.tags));
  });

  it("replace keeps only the observed tags; merge never removes one", () => {
    const [first] = tags as [string];
    const observed = [{ tag: first, content: cmake.root.tags[first]?.content as string }];
    const replaced = buildPackageRoot({ committed: cmake, mode: "replace", observed, desc: null, now: NOW });
    expect(Object.keys(replaced.root.tags)).toEqual([first]);
    expect(replaced.root.desc).toBeNull();
    const merged = buildPackageRoot({ committed: cmake, mode: "merge", observed: [], desc: null, now: NOW });
    expect(Object.keys(merged.root.tags)).toEqual(tags);
  });

  it("never lists a reserved tag, and reports the observed ones it left out", () => {
    const reserved = [
      "__pkg.desc",
      "__pkg.published",
      "__PKG.x",
      "__ocx.desc",
      `sha256.${"a".repeat(64)}`,
      `sha256-${"b".repeat(64)}`,
      `sha256-${"c".repeat(64)}.sig`,
    ];
    const result = buildPackageRoot({
      newRoot: NEW_ROOT,
      mode: "merge",
      observed: [...reserved, "1.0.0", `sha256.${"d".repeat(10)}`].map((tag, i) => ({
        tag,
        content: digest(i),
      })),
      desc: null,
      now: NOW,
    });
    expect(Object.keys(result.root.tags)).toEqual(["1.0.0", `sha256.${"d".repeat(10)}`]);
    expect(result.reservedTagsDropped).toEqual(reserved);
  });

  it("starts a new root with the governance fields given, created today, status active", () => {
    const result = buildPackageRoot({
      newRoot: NEW_ROOT,
      mode: "merge",
      observed: [
        { tag: "2", content: digest(1) },
        { tag: "1.0.0", content: digest(1) },
      ],
      desc: DESC,
      now: NOW,
    });
    expect(text(result.bytes)).toBe(
      `{
  "name": "example.org/acme/tool",
  "repository": "oci://registry.example.org/acme/tool",
  "owners": [
    {
      "github": "alice",
      "github_id": 7
    }
  ],
  "status": "active",
  "deprecated_message": null,
  "created": "2026-09-01",
  "desc": {
    "digest": "${digest(99)}",
    "title": "Tool",
    "description": "Does things",
    "keywords": [
      "a"
    ]
  },
  "tags": {
    "2": {
      "content": "${digest(1)}",
      "observed": "2026-09-01T12:34:56Z"
    },
    "1.0.0": {
      "content": "${digest(1)}",
      "observed": "2026-09-01T12:34:56Z"
    }
  }
}
`,
    );
  });

  it("derives variants from the tags before `tags`, and drops the member when none remain", () => {
    const variantOf = (tag: string) => /^([a-z][a-z0-9.]*)-[0-9]/.exec(tag)?.[1];
    const withVariants = buildPackageRoot({
      newRoot: NEW_ROOT,
      mode: "merge",
      observed: ["slim-1.0.0", "1.0.0", "debug-1.0", "slim"].map((tag) => ({ tag, content: digest(1) })),
      desc: null,
      now: NOW,
      variantOf,
    });
    expect(withVariants.root.variants).toEqual(["debug", "slim"]);
    expect(text(withVariants.bytes)).toMatch(
      /"desc": null,\n {2}"variants": \[\n.*\n.*\n {2}\],\n {2}"tags"/,
    );
    const again = readCommittedRoot(withVariants.bytes, "root.json");
    const without = buildPackageRoot({
      committed: again,
      mode: "replace",
      observed: [{ tag: "1.0.0", content: digest(1) }],
      desc: null,
      now: NOW,
      variantOf,
    });
    expect(without.root.variants).toBeUndefined();
    expect(text(without.bytes)).not.toContain("variants");
  });

  it("refuses to produce a root that breaks the schema (exit 65)", () => {
    const run = () =>
      buildPackageRoot({
        newRoot: NEW_ROOT,
        mode: "merge",
        observed: [],
        desc: { ...DESC, title: "" },
        now: NOW,
      });
    expect(run).toThrow(IndexFormatError);
    expect(run).toThrow("the new package root: $.desc.title: empty string");
  });
});
