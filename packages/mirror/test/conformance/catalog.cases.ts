import { expect } from "vitest";
import { type ConformanceCase, spec } from "../support/spec-case.js";

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"/>';

function catalogOf(s: Record<string, unknown>): Record<string, string | undefined> {
  return s.catalog as Record<string, string | undefined>;
}

export const cases: ConformanceCase[] = [
  {
    rule: "catalog: readme defaults to CATALOG.md; unset and absent is fine (describe skips)",
    yaml: spec({ catalog: {} }),
    exit: 0,
    check: (s) => expect(s.catalog).toEqual({ readme: "CATALOG.md" }),
  },
  {
    rule: "catalog: the default CATALOG.md is found in the spec's directory",
    yaml: spec({ catalog: {} }),
    files: { "CATALOG.md": "# Tool\n" },
    exit: 0,
    check: (s) => {
      expect(catalogOf(s).readme).toBe("CATALOG.md");
      expect(catalogOf(s).readme_file).toMatch(/\/CATALOG\.md$/);
      expect(catalogOf(s).logo).toBeUndefined();
    },
  },
  {
    rule: "catalog.logo: unset probes logo.svg then logo.png; svg wins",
    yaml: spec({ catalog: {} }),
    files: { "logo.svg": SVG, "logo.png": "png" },
    exit: 0,
    check: (s) => {
      expect(catalogOf(s).logo).toBe("logo.svg");
      expect(catalogOf(s).logo_file).toMatch(/\/logo\.svg$/);
    },
  },
  {
    rule: "catalog.logo: unset finds logo.png when there is no svg",
    yaml: spec({ catalog: {} }),
    files: { "logo.png": "png" },
    exit: 0,
    check: (s) => expect(catalogOf(s).logo).toBe("logo.png"),
  },
  {
    rule: "catalog: readme and logo set and present resolve against the spec's directory",
    yaml: spec({ catalog: { readme: "docs/README.md", logo: "art/icon.png" } }),
    files: { "docs/README.md": "# Tool\n", "art/icon.png": "png", "logo.svg": SVG },
    exit: 0,
    check: (s) => {
      expect(catalogOf(s)).toMatchObject({ readme: "docs/README.md", logo: "art/icon.png" });
      expect(catalogOf(s).readme_file).toMatch(/\/docs\/README\.md$/);
      expect(catalogOf(s).logo_file).toMatch(/\/art\/icon\.png$/);
    },
  },
  {
    rule: "catalog.readme: set and missing is refused",
    yaml: spec({ catalog: { readme: "README.md" } }),
    exit: 65,
    path: "catalog.readme",
    message: /README\.md: no such file/,
  },
  {
    rule: "catalog.logo: set and missing is refused (no probing when set)",
    yaml: spec({ catalog: { logo: "brand/logo.svg" } }),
    files: { "logo.svg": SVG },
    exit: 65,
    path: "catalog.logo",
    message: /no such file/,
  },
  {
    rule: "catalog.readme: a directory is not a file",
    yaml: spec({ catalog: { readme: "docs" } }),
    files: { "docs/index.md": "# Tool\n" },
    exit: 65,
    path: "catalog.readme",
  },
  {
    rule: "catalog.readme: an empty path is refused",
    yaml: spec({ catalog: { readme: "" } }),
    exit: 65,
    path: "catalog.readme",
    message: /must not be empty/,
  },
  {
    rule: "catalog: an unknown key is refused",
    yaml: spec({ catalog: { description: "A tool" } }),
    exit: 65,
    path: "catalog.description",
    message: /unknown key "description"/,
  },
  {
    rule: "catalog: a misspelt key names the closest",
    yaml: spec({ catalog: { readme: "CATALOG.md", log: "logo.svg" } }),
    files: { "CATALOG.md": "# Tool\n" },
    exit: 65,
    path: "catalog.log",
    message: /did you mean "logo"/,
  },
  {
    rule: "catalog: must be a mapping",
    yaml: spec({ catalog: "CATALOG.md" }),
    exit: 65,
    path: "catalog",
    message: /expected a mapping/,
  },
];
