import { describe, expect, it } from "vitest";
import { slotStems, slotSuffix, specArgs, workflowName, workflowPath } from "./slot.js";

describe("spec slots", () => {
  it("keeps the bare names at the root and suffixes a nested spec with its directory", () => {
    expect(slotSuffix("")).toBe("");
    expect(slotSuffix("tools/jq")).toBe("-tools-jq");
    expect(workflowPath("mirror", "")).toBe(".github/workflows/mirror.yml");
    expect(workflowPath("describe", "a/b")).toBe(".github/workflows/describe-a-b.yml");
    expect(workflowName("patch", { dir: "a/b", spec: { name: "jq" } })).toBe("patch-a-b: jq");
  });

  it("gives pipeline invocations --spec except for the root mirror.yml", () => {
    expect(specArgs({ specPath: "mirror.yml" })).toEqual([]);
    expect(specArgs({ specPath: "tools.yml" })).toEqual(["--spec", "tools.yml"]);
    expect(specArgs({ specPath: "tools/jq/mirror.yml" })).toEqual(["--spec", "tools/jq/mirror.yml"]);
  });

  it("renders cascade unless cascade: false, and the catch-up announce only with an announce block", () => {
    expect(slotStems({ cascade: { enabled: true } })).toEqual(["mirror", "describe", "patch", "cascade"]);
    expect(
      slotStems({
        cascade: { enabled: false },
        announce: { package: "a/b", forge: "forgeone", transport: "api" },
      }),
    ).toEqual(["mirror", "describe", "patch", "announce-from-registry"]);
  });
});
