import { describe, expect, it } from "vitest";
import { descriptionMarkdown, parseProjectDescription } from "./core-metadata.js";

const metadata = (...lines: string[]) =>
  `${lines.join("\n")}\n\nThe long description is not read.\nSummary: no\n`;

describe("a wheel's core metadata as a project description", () => {
  it("reads Summary, comma-separated Keywords and the SPDX License-Expression before License", () => {
    const text = metadata(
      "Metadata-Version: 2.4",
      "Name: calc",
      "Summary: A calculator",
      "Keywords: calc, math,calc",
      "License: Some long text",
      "License-Expression: MIT OR Apache-2.0",
    );
    expect(parseProjectDescription(text)).toEqual({
      summary: "A calculator",
      keywords: ["calc", "math"],
      license: "MIT OR Apache-2.0",
    });
  });

  it("takes space-separated keywords, a one-line License, and skips UNKNOWN", () => {
    expect(
      parseProjectDescription(metadata("Summary: UNKNOWN", "Keywords: cli tools", "License: BSD-3-Clause")),
    ).toEqual({ keywords: ["cli", "tools"], license: "BSD-3-Clause" });
  });

  it("does not take a whole license text for a name: the classifier's last segment instead", () => {
    const text = metadata(
      "Summary: x",
      "License: Copyright (c) 2024",
      "        Permission is hereby granted",
      "Classifier: Programming Language :: Python",
      "Classifier: License :: OSI Approved :: MIT License",
    );
    expect(parseProjectDescription(text).license).toBe("MIT License");
  });

  it("makes the README: the summary as the lead paragraph, then Keywords and License lines, markup escaped", () => {
    expect(
      descriptionMarkdown({ summary: "Fast *and* <safe>", keywords: ["a_b", "c"], license: "MIT" }),
    ).toBe("Fast \\*and\\* \\<safe\\>\n\nKeywords: a\\_b, c\n\nLicense: MIT\n");
    expect(descriptionMarkdown({ summary: "# not a heading", keywords: [] })).toBe("\\# not a heading\n");
    expect(descriptionMarkdown({ summary: "1. not a list", keywords: [] })).toBe("1\\. not a list\n");
    expect(descriptionMarkdown({ keywords: [] })).toBeUndefined();
  });
});
