import { describe, expect, it } from "vitest";
import { openInSource } from "./source.js";

describe("an identifier opened in a source", () => {
  it("is named as its target names itself, before the target is opened", async () => {
    for (const [source, identifier] of [
      [{ kind: "registry" }, "registry.example.com:5000/acme/tool:1.0"],
      [{ kind: "layout", root: "relative/layouts" }, "acme/tool@sha256:".padEnd(81, "a")],
      [{ kind: "layout", root: "/srv/layouts" }, "ignored.example.com/acme/tool"],
    ] as const) {
      const opened = openInSource(source, identifier);
      const target = await opened.target();
      expect(opened.displayName).toBe(target.displayName);
      expect(await opened.target()).toBe(target);
    }
  });

  it("is refused when malformed, before anything is opened (exit 64)", () => {
    expect(() => openInSource({ kind: "registry" }, "acme/tool:1.0")).toThrow(
      expect.objectContaining({ exitCode: 64 }),
    );
  });
});
