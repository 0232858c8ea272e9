import { describe, expect, it } from "vitest";
import { config } from "../../test/support/config-case.js";
import { ConfigError } from "./errors.js";
import { parseCatalogConfig } from "./parse.js";
import { containedPath, isInside } from "./paths.js";

const file = "/srv/site/catalog.config.json";

describe("lexical path containment", () => {
  it("accepts an absolute path inside the config directory", () => {
    const parsed = parseCatalogConfig(config({ css: "/srv/site/styles/site.css" }), file);
    expect(parsed.css).toBe("/srv/site/styles/site.css");
  });

  it("refuses a sibling directory that only shares the name as a prefix", () => {
    expect(() => parseCatalogConfig(config({ publicDir: "/srv/site-public" }), file)).toThrow(
      'PATH_ESCAPE: publicDir "/srv/site-public" resolves to /srv/site-public, outside the config directory /srv/site',
    );
    expect(() => parseCatalogConfig(config({ publicDir: "../site-public" }), file)).toThrow(ConfigError);
  });

  it("judges the resolved path, not the spelling", () => {
    expect(isInside("/srv/site", "/srv/site")).toBe(true);
    expect(isInside("/srv/site", "/srv/site/a/b")).toBe(true);
    expect(isInside("/srv/site", "/srv/site/..a")).toBe(true);
    expect(isInside("/srv/site", "/srv")).toBe(false);
    expect(isInside("/srv/site", "/srv/sitex")).toBe(false);
    expect(containedPath("/srv/site", "a/./b/../c", "docs")).toBe("/srv/site/a/c");
    expect(() => containedPath("/srv/site", "a/../../site/../x", "docs")).toThrow(/PATH_ESCAPE: docs/);
  });

  it("resolves a relative config file name against the working directory", () => {
    const parsed = parseCatalogConfig(config({}), "catalog.config.json");
    expect(parsed.file).toBe(`${process.cwd()}/catalog.config.json`);
    expect(parsed.dir).toBe(process.cwd());
  });
});
