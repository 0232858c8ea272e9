import type { Metadata } from "@pkg/package";
import { describe, expect, it } from "vitest";
import type { BinScan } from "../../spec/bin-scan.js";
import { adoptPublished, dependencyRefusals, metadataDrift } from "./metadata-compare.js";

// biome-ignore lint/suspicious/noTemplateCurlyInString: the metadata's own placeholder
const BIN = "${installPath}/bin";
// biome-ignore lint/suspicious/noTemplateCurlyInString: the metadata's own placeholder
const LIBEXEC = "${installPath}/libexec";
const PIN = `sha256:${"a".repeat(64)}`;
const OTHER_PIN = `sha256:${"b".repeat(64)}`;

const base: Metadata = {
  type: "bundle",
  version: 1,
  env: [{ key: "PATH", type: "path", value: BIN, required: true }],
};
const withDeps = (...identifiers: string[]): Metadata => ({
  ...base,
  dependencies: identifiers.map((identifier) => ({ identifier, name: "python" })),
});

const rows: Array<{
  rule: string;
  expected: Metadata;
  published: Metadata;
  binScan?: BinScan;
  fields: string[];
}> = [
  { rule: "equal metadata is current", expected: base, published: { ...base }, fields: [] },
  {
    rule: "key order inside values does not matter",
    expected: base,
    published: { ...base, env: [{ required: true, value: BIN, type: "path", key: "PATH" }] },
    fields: [],
  },
  {
    rule: "an edited env value is drift",
    expected: { ...base, env: [{ key: "PATH", type: "path", value: LIBEXEC }] },
    published: base,
    fields: ["env"],
  },
  {
    rule: "a field only one side has is drift, named in model order",
    expected: { ...base, strip_components: 1, entrypoints: [{ name: "t", target: "tool" }] },
    published: base,
    fields: ["strip_components", "entrypoints"],
  },
  {
    rule: "bin_scan off: published binaries the file no longer declares are drift",
    expected: base,
    published: { ...base, binaries: ["tool"] },
    binScan: "off",
    fields: ["binaries"],
  },
  {
    rule: "bin_scan auto: binaries the scan filled are adopted",
    expected: base,
    published: { ...base, binaries: ["tool", "tool-helper"] },
    binScan: "auto",
    fields: [],
  },
  {
    rule: "bin_scan verify: binaries the scan filled are adopted",
    expected: base,
    published: { ...base, binaries: ["tool"] },
    binScan: "verify",
    fields: [],
  },
  {
    rule: "bin_scan auto: a version published before the scan was on has none and stays current",
    expected: base,
    published: base,
    binScan: "auto",
    fields: [],
  },
  {
    rule: "bin_scan auto: a declared claim compares like any field",
    expected: { ...base, binaries: ["tool"] },
    published: { ...base, binaries: ["tool", "extra"] },
    binScan: "auto",
    fields: ["binaries"],
  },
  {
    rule: "a dependency named by tag alone is current against the published pin of that tag",
    expected: withDeps("ghcr.io/acme/python:3.13"),
    published: withDeps(`ghcr.io/acme/python:3.13@${PIN}`),
    fields: [],
  },
  {
    rule: "a tag-only dependency whose tag moved is drift",
    expected: withDeps("ghcr.io/acme/python:3.14"),
    published: withDeps(`ghcr.io/acme/python:3.13@${PIN}`),
    fields: ["dependencies"],
  },
  {
    rule: "a dependency without a tag is not pinned by adoption",
    expected: withDeps("ghcr.io/acme/python"),
    published: withDeps(`ghcr.io/acme/python@${PIN}`),
    fields: ["dependencies"],
  },
  {
    rule: "a dependency pinned in the file compares its digest",
    expected: withDeps(`ghcr.io/acme/python:3.13@${OTHER_PIN}`),
    published: withDeps(`ghcr.io/acme/python:3.13@${PIN}`),
    fields: ["dependencies"],
  },
  {
    rule: "an added dependency is drift",
    expected: withDeps("ghcr.io/acme/python:3.13", "ghcr.io/acme/zlib:1"),
    published: withDeps(`ghcr.io/acme/python:3.13@${PIN}`),
    fields: ["dependencies"],
  },
  {
    rule: "a changed dependency name is drift even when the pin is adopted",
    expected: {
      ...base,
      dependencies: [{ identifier: "ghcr.io/acme/python:3.13", name: "py" }],
    },
    published: withDeps(`ghcr.io/acme/python:3.13@${PIN}`),
    fields: ["dependencies"],
  },
];

describe("metadataDrift", () => {
  it.each(rows)("$rule", ({ expected, published, binScan, fields }) => {
    expect(metadataDrift(expected, published, binScan ?? "off")).toEqual(fields);
  });
});

describe("adoptPublished: what patch publishes", () => {
  it("takes the scan's published binaries and the published pins; a patched version then shows no drift", () => {
    const expected: Metadata = { ...withDeps("ghcr.io/acme/python:3.13"), env: [] };
    const published: Metadata = { ...withDeps(`ghcr.io/acme/python:3.13@${PIN}`), binaries: ["tool"] };
    const patched = adoptPublished(expected, published, "auto");
    expect(patched).toEqual({
      ...base,
      env: [],
      binaries: ["tool"],
      dependencies: [{ identifier: `ghcr.io/acme/python:3.13@${PIN}`, name: "python" }],
    });
    expect(metadataDrift(expected, patched, "auto")).toEqual([]);
    expect(adoptPublished(base, { ...base, binaries: ["tool"] }, "off")).toEqual(base);
    expect(adoptPublished(base, base, "verify")).toEqual(base);
  });
});

describe("dependencyRefusals", () => {
  it.each([
    ["the same pinned tag", "ghcr.io/acme/python:3.13", [`ghcr.io/acme/python:3.13@${PIN}`], []],
    [
      "a digest pinned in the file",
      `ghcr.io/acme/python:3.13@${OTHER_PIN}`,
      [`ghcr.io/acme/python:3.13@${PIN}`],
      [],
    ],
    [
      "a moved tag",
      "ghcr.io/acme/python:3.14",
      [`ghcr.io/acme/python:3.13@${PIN}`],
      ["moves the dependency ghcr.io/acme/python from 3.13 to tag 3.14"],
    ],
    [
      "an added dependency",
      "127.0.0.1:5000/acme/zlib:1",
      [`ghcr.io/acme/python:3.13@${PIN}`],
      ["adds the dependency 127.0.0.1:5000/acme/zlib:1"],
    ],
  ] as const)("%s", (_, identifier, published, reasons) => {
    const expected: Metadata = { ...base, dependencies: [{ identifier }] };
    const held: Metadata = { ...base, dependencies: published.map((p) => ({ identifier: p })) };
    expect(dependencyRefusals(expected, held)).toEqual(reasons);
  });
});
