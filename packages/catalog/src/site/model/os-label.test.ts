import { describe, expect, it } from "vitest";
import { osClass, osLabel } from "./os-label.js";

describe("OS badges", () => {
  it("name a known OS as people do and keep an unknown one as given", () => {
    expect(["linux", "darwin", "windows", "freebsd"].map(osLabel)).toEqual([
      "Linux",
      "macOS",
      "Windows",
      "FreeBSD",
    ]);
    expect(osLabel("haiku")).toBe("haiku");
    expect(osLabel("constructor")).toBe("constructor");
  });

  it("style a known OS by its name and anything else, hostile text included, as other", () => {
    expect(osClass("darwin")).toBe("os-darwin");
    expect(osClass('x" onclick="y')).toBe("os-other");
    expect(osClass("toString")).toBe("os-other");
  });
});
