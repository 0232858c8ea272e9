import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, spec } from "../support/spec-case.js";

const env = (value: string, extra: Fields = {}) => ({ key: "PATH", type: "path", value, ...extra });
const metadataJson = (fields: Fields) => JSON.stringify({ type: "bundle", version: 1, ...fields });
const bare = metadataJson({ env: [env(`\${installPath}`)] });
const bareWithBinaries = metadataJson({ env: [env(`\${installPath}`)], binaries: ["tool"] });
const binDir = metadataJson({ env: [env(`\${installPath}/bin`)] });
const withMetadata = (binScan: string | undefined, file: string, extra: Fields = {}) => ({
  yaml: spec({ ...(binScan ? { bin_scan: binScan } : {}), metadata: { default: "metadata.json" }, ...extra }),
  files: { "metadata.json": file },
});

export const cases: ConformanceCase[] = [
  {
    rule: "bin_scan: defaults to off",
    yaml: spec(),
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("off"),
  },
  {
    rule: `bin_scan: auto with a \${installPath}/<dir> PATH`,
    ...withMetadata("auto", binDir),
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("auto"),
  },
  {
    rule: `bin_scan: verify with a \${installPath}/<dir> PATH`,
    ...withMetadata("verify", binDir),
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("verify"),
  },
  {
    rule: "bin_scan: one of off, auto, verify",
    yaml: spec({ bin_scan: "on" }),
    exit: 65,
    path: "bin_scan",
    message: /expected one of "off", "auto", "verify"/,
  },
  {
    rule: "bin_scan: a near miss names the closest value",
    yaml: spec({ bin_scan: "veriffy" }),
    exit: 65,
    path: "bin_scan",
    message: /did you mean "verify"/,
  },
  {
    rule: "bin_scan: a word, not a boolean",
    yaml: spec({ bin_scan: true }),
    exit: 65,
    path: "bin_scan",
    message: /expected a string/,
  },
  {
    rule: `bin_scan: auto on metadata whose PATH is the bare \${installPath} fails at load, naming the file`,
    ...withMetadata("auto", bare),
    exit: 65,
    path: "metadata.default",
    message: /bin_scan: auto has no scan target in metadata\.json: its PATH is the bare \$\{installPath\}/,
  },
  {
    rule: `bin_scan: verify on the bare \${installPath} fails too`,
    ...withMetadata("verify", bare),
    exit: 65,
    path: "metadata.default",
    message: /bin_scan: verify has no scan target/,
  },
  {
    rule: "bin_scan: off loads the same metadata",
    ...withMetadata("off", bare),
    exit: 0,
    check: (s) => expect(s.metadata).toEqual({ default: "metadata.json", platforms: {} }),
  },
  {
    rule: "bin_scan: absent (off) loads the same metadata",
    ...withMetadata(undefined, bare),
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("off"),
  },
  {
    rule: "bin_scan: a declared binaries list exempts auto",
    ...withMetadata("auto", bareWithBinaries),
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("auto"),
  },
  {
    rule: "bin_scan: a declared binaries list does not exempt verify",
    ...withMetadata("verify", bareWithBinaries),
    exit: 65,
    path: "metadata.default",
    message: /does not exempt verify/,
  },
  {
    rule: `bin_scan: a trailing slash is still the bare \${installPath}`,
    ...withMetadata("auto", metadataJson({ env: [env(`\${installPath}/`)] })),
    exit: 65,
    path: "metadata.default",
    message: /bare \$\{installPath\}/,
  },
  {
    rule: "bin_scan: metadata with no path variable offers no scan target",
    ...withMetadata("auto", metadataJson({})),
    exit: 65,
    path: "metadata.default",
    message: /declares no \$\{installPath\}\/<dir> path variable/,
  },
  {
    rule: "bin_scan: a private path variable does not reach the interface",
    ...withMetadata("auto", metadataJson({ env: [env(`\${installPath}/bin`, { visibility: "private" })] })),
    exit: 65,
    path: "metadata.default",
    message: /no scan target/,
  },
  {
    rule: "bin_scan: an interface path variable is a scan target",
    ...withMetadata(
      "verify",
      metadataJson({ env: [env(`\${installPath}/bin`, { visibility: "interface" })] }),
    ),
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("verify"),
  },
  {
    rule: `bin_scan: any \${installPath}-rooted path variable counts, not only PATH`,
    ...withMetadata(
      "auto",
      metadataJson({
        env: [
          env(`\${installPath}`),
          { key: "TOOL_LIBEXEC", type: "path", value: `\${installPath}/libexec` },
        ],
      }),
    ),
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("auto"),
  },
  {
    rule: "bin_scan: a constant variable is no scan target",
    ...withMetadata(
      "auto",
      metadataJson({ env: [{ key: "PATH", type: "constant", value: `\${installPath}/bin` }] }),
    ),
    exit: 65,
    path: "metadata.default",
    message: /no scan target/,
  },
  {
    rule: "bin_scan: a dependency's directory is not this package's scan target",
    ...withMetadata(
      "auto",
      metadataJson({
        env: [env(`\${deps.python.installPath}/bin`)],
        dependencies: [{ identifier: `ocx.sh/python:3.13@sha256:${"0".repeat(64)}`, name: "python" }],
      }),
    ),
    exit: 65,
    path: "metadata.default",
    message: /no scan target/,
  },
  {
    rule: "bin_scan: every per-platform metadata file is checked",
    yaml: spec({
      bin_scan: "auto",
      metadata: { default: "metadata.json", platforms: { "windows/amd64": "windows.json" } },
    }),
    files: { "metadata.json": binDir, "windows.json": bare },
    exit: 65,
    path: "metadata.platforms.windows/amd64",
    message: /no scan target in windows\.json/,
  },
  {
    rule: "bin_scan: a file that is not valid metadata is refused when it must be scanned",
    ...withMetadata("auto", "{ not json"),
    exit: 65,
    path: "metadata.default",
    message: /needs valid metadata: metadata\.json: .*not valid JSON/,
  },
  {
    rule: "bin_scan: auto without a metadata block loads (there is no file to check)",
    yaml: spec({ bin_scan: "auto" }),
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("auto"),
  },
  {
    rule: "bin_scan: a variant inheriting the top-level value and metadata is checked, naming the variant",
    yaml: spec({
      assets: undefined,
      bin_scan: "auto",
      metadata: { default: "metadata.json" },
      variants: [
        { default: true, assets: { "linux/amd64": ["tool"] } },
        { name: "musl", assets: { "linux/amd64": ["tool-musl"] } },
      ],
    }),
    files: { "metadata.json": bare },
    exit: 65,
    path: "metadata.default",
    message: /bin_scan: auto \(the default variant\) has no scan target/,
  },
  {
    rule: "bin_scan: a variant's own metadata is checked under variants.<name>",
    yaml: spec({
      assets: undefined,
      variants: [
        { default: true, assets: { "linux/amd64": ["tool"] } },
        {
          name: "musl",
          bin_scan: "verify",
          metadata: { default: "musl.json" },
          assets: { "linux/amd64": ["tool-musl"] },
        },
      ],
    }),
    files: { "musl.json": bare },
    exit: 65,
    path: "variants.musl.metadata.default",
    message: /bin_scan: verify \(variant musl\) has no scan target in musl\.json/,
  },
  {
    rule: "bin_scan: a variant's explicit off overrides an inherited auto",
    yaml: spec({
      assets: undefined,
      bin_scan: "auto",
      metadata: { default: "metadata.json" },
      variants: [{ default: true, bin_scan: "off", assets: { "linux/amd64": ["tool"] } }],
    }),
    files: { "metadata.json": bare },
    exit: 0,
    check: (s) => expect((s.variants as Fields[])[0]?.bin_scan).toBe("off"),
  },
  {
    rule: "bin_scan: a variant's auto applies to the top-level metadata it inherits",
    yaml: spec({
      assets: undefined,
      metadata: { default: "metadata.json" },
      variants: [{ name: "static", default: true, bin_scan: "auto", assets: { "linux/amd64": ["tool"] } }],
    }),
    files: { "metadata.json": bare },
    exit: 65,
    path: "metadata.default",
    message: /\(variant static\)/,
  },
  {
    rule: "bin_scan: top-level metadata no variant selects is not checked",
    yaml: spec({
      assets: undefined,
      bin_scan: "verify",
      metadata: { default: "metadata.json" },
      variants: [{ default: true, metadata: { default: "bin.json" }, assets: { "linux/amd64": ["tool"] } }],
    }),
    files: { "metadata.json": bare, "bin.json": binDir },
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("verify"),
  },
];
