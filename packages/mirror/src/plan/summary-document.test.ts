import { describe, expect, it } from "vitest";
import { parseSummary, serializeSummary } from "./summary-document.js";

const a = `sha256:${"a".repeat(64)}`;
const b = `sha256:${"b".repeat(64)}`;
const c = `sha256:${"c".repeat(64)}`;

describe("published summary document", () => {
  it("serialises tags and platforms sorted, integer-like tags included, so equal content is equal bytes", () => {
    const one = serializeSummary(
      new Map([
        ["1.2.0", { digest: a, platforms: ["linux/arm64", "darwin/arm64"] }],
        ["1", { digest: b, platforms: ["linux/amd64"] }],
        ["1.10.0_20250101120000", { digest: a, platforms: [] }],
      ]),
    );
    expect(one.toString()).toBe(
      `{"schema":1,"tags":{"1":{"digest":"${b}","platforms":["linux/amd64"]},` +
        `"1.10.0_20250101120000":{"digest":"${a}","platforms":[]},` +
        `"1.2.0":{"digest":"${a}","platforms":["darwin/arm64","linux/arm64"]}}}`,
    );
    const reordered = serializeSummary(
      new Map([
        ["1.10.0_20250101120000", { digest: a, platforms: [] }],
        ["1.2.0", { digest: a, platforms: ["darwin/arm64", "linux/arm64"] }],
        ["1", { digest: b, platforms: ["linux/amd64"] }],
      ]),
    );
    expect(reordered.equals(one)).toBe(true);
    expect([...parseSummary(one)]).toEqual([
      ["1", { digest: b, platforms: ["linux/amd64"] }],
      ["1.10.0_20250101120000", { digest: a, platforms: [] }],
      ["1.2.0", { digest: a, platforms: ["darwin/arm64", "linux/arm64"] }],
    ]);
  });

  it("writes each platform's config digest, sorted, after the platforms, and reads it back", () => {
    const tags = new Map([
      ["1", { digest: a, platforms: ["linux/amd64"] }],
      [
        "1.2.0",
        {
          digest: b,
          platforms: ["linux/arm64", "darwin/arm64"],
          configs: new Map([
            ["linux/arm64", c],
            ["darwin/arm64", a],
          ]),
        },
      ],
    ]);
    const bytes = serializeSummary(tags);
    expect(bytes.toString()).toBe(
      `{"schema":1,"tags":{"1":{"digest":"${a}","platforms":["linux/amd64"]},` +
        `"1.2.0":{"digest":"${b}","platforms":["darwin/arm64","linux/arm64"],` +
        `"configs":{"darwin/arm64":"${a}","linux/arm64":"${c}"}}}}`,
    );
    const parsed = parseSummary(bytes);
    expect(parsed.get("1")).toEqual({ digest: a, platforms: ["linux/amd64"] });
    expect(parsed.get("1.2.0")).toEqual({
      digest: b,
      platforms: ["darwin/arm64", "linux/arm64"],
      configs: new Map([
        ["darwin/arm64", a],
        ["linux/arm64", c],
      ]),
    });
    expect(serializeSummary(parsed).equals(bytes)).toBe(true);
    // some platforms' configs only (the others' manifests were carried, not written), or none
    const partial = `{"schema":1,"tags":{"1.0.0":{"digest":"${a}","platforms":["linux/amd64","linux/arm64"],"configs":{"linux/arm64":"${b}"}}}}`;
    expect(serializeSummary(parseSummary(Buffer.from(partial))).toString()).toBe(partial);
    const empty = `{"schema":1,"tags":{"1.0.0":{"digest":"${a}","platforms":[],"configs":{}}}}`;
    expect(parseSummary(Buffer.from(empty)).get("1.0.0")).toEqual({ digest: a, platforms: [] });
  });

  it.each([
    ["not JSON", "{", /not JSON/],
    ["an array", "[]", /not a JSON object/],
    ["another schema", '{"schema":2,"tags":{}}', /unsupported schema 2/],
    ["tags not an object", '{"schema":1,"tags":[]}', /"tags" is not an object/],
    ["a bad digest", '{"schema":1,"tags":{"1.0.0":{"digest":"md5:x","platforms":[]}}}', /1\.0\.0: no sha256/],
    [
      "a bad platform",
      `{"schema":1,"tags":{"1.0.0":{"digest":"${a}","platforms":["Linux/AMD64"]}}}`,
      /"Linux\/AMD64" is not a platform key/,
    ],
    [
      "platforms not an array",
      `{"schema":1,"tags":{"1.0.0":{"digest":"${a}","platforms":"linux/amd64"}}}`,
      /"platforms" is not an array/,
    ],
    [
      "configs not an object",
      `{"schema":1,"tags":{"1.0.0":{"digest":"${a}","platforms":["linux/amd64"],"configs":["${a}"]}}}`,
      /"configs" is not an object/,
    ],
    [
      "a config for a platform the index lacks",
      `{"schema":1,"tags":{"1.0.0":{"digest":"${a}","platforms":["linux/amd64"],"configs":{"linux/arm64":"${a}"}}}}`,
      /a config for unlisted "linux\/arm64"/,
    ],
    [
      "a config without a sha256 digest",
      `{"schema":1,"tags":{"1.0.0":{"digest":"${a}","platforms":["linux/amd64"],"configs":{"linux/amd64":"x"}}}}`,
      /the config of linux\/amd64 is no sha256 digest/,
    ],
  ])("refuses %s with exit 65", (_what, text, message) => {
    expect(() => parseSummary(Buffer.from(text))).toThrow(
      expect.objectContaining({ exitCode: 65, message: expect.stringMatching(message) }),
    );
  });

  it("reads a tag named like an Object.prototype key as plain data", () => {
    const tags = parseSummary(
      Buffer.from(`{"schema":1,"tags":{"__proto__":{"digest":"${a}","platforms":[]}}}`),
    );
    expect(tags.get("__proto__")).toEqual({ digest: a, platforms: [] });
  });
});
