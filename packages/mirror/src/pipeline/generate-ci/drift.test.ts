import { describe, expect, it } from "vitest";
import { hasDrifted, normalisePins } from "./drift.js";

const rendered = [
  "steps:",
  "  - name: Check out",
  "    uses: actions/checkout@de0fac2e4500dabe0009e67214ff5f5447ce83dd # v6.0.2",
  "  - uses: actions/setup-node@48b55a011bda9f5d6aeb4c2d9c7362e8dae4041e # v6.4.0",
  "    with:",
  '      node-version: "20"',
  "",
].join("\n");

describe("normalisePins", () => {
  it("drops each uses: line's ref and its comment, keeping the action", () => {
    expect(normalisePins(rendered)).toContain("    uses: actions/checkout\n  - uses: actions/setup-node\n");
  });

  it("takes a pin bump (another SHA or a tag, another comment or none) as no drift", () => {
    const bumped = rendered
      .replace("de0fac2e4500dabe0009e67214ff5f5447ce83dd # v6.0.2", `${"f".repeat(40)}  # v7.0.0`)
      .replace("48b55a011bda9f5d6aeb4c2d9c7362e8dae4041e # v6.4.0", "v6");
    expect(hasDrifted(rendered, bumped)).toBe(false);
  });

  it("takes another action, or any other change, as drift", () => {
    expect(hasDrifted(rendered, rendered.replace("actions/checkout@", "evil/checkout@"))).toBe(true);
    expect(hasDrifted(rendered, rendered.replace('"20"', '"22"'))).toBe(true);
  });

  it("leaves a run: line mentioning an action alone", () => {
    const text = "run: echo uses: actions/checkout@abc # not a step\n";
    expect(normalisePins(text)).toBe(text);
  });
});
