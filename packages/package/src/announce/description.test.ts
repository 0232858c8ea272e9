import { describe, expect, it } from "vitest";
import {
  DescriptionAnnotation,
  descriptionFields,
  readmeSummary,
  readmeTitle,
  SUMMARY_MAX,
} from "./description.js";

describe("readmeTitle", () => {
  it("takes the first level-one heading, ATX or setext, as plain text", () => {
    expect(readmeTitle("# Acme `Tool` #\n\ntext")).toBe("Acme Tool");
    expect(readmeTitle("Acme Tool\n=========\n\ntext")).toBe("Acme Tool");
    expect(readmeTitle("```\n# not this\n```\n\n# [This](https://x)\n")).toBe("This");
    expect(readmeTitle("## Only a subheading\n\ntext")).toBeUndefined();
    expect(readmeTitle("")).toBeUndefined();
  });
});

describe("readmeSummary", () => {
  it("takes the first prose paragraph, past headings, badges, HTML, lists and code", () => {
    const readme = [
      "# Tool",
      "",
      "[![ci](https://img/x.svg)](https://ci) ![logo](l.png)",
      "",
      '<p align="center">hi</p>',
      "",
      "```sh",
      "not this",
      "```",
      "",
      "- nor this",
      "",
      "Tool does **useful** things with `code`",
      "and [links](https://example.org).",
      "",
      "Second paragraph.",
    ].join("\n");
    expect(readmeSummary(readme)).toBe("Tool does useful things with code and links.");
  });

  it("cuts a long paragraph at a word with an ellipsis", () => {
    const summary = readmeSummary(`${"word ".repeat(200)}end`) ?? "";
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(summary.endsWith("word\u2026")).toBe(true);
  });

  it("is undefined for a README without prose", () => {
    expect(readmeSummary("# Title\n\n## Sub\n\n- item\n")).toBeUndefined();
  });
});

describe("descriptionFields", () => {
  it("prefers the manifest's annotations, field by field", () => {
    expect(
      descriptionFields(
        {
          [DescriptionAnnotation.Title]: " Acme ",
          [DescriptionAnnotation.Keywords]: "cli, build,,cli , tools",
        },
        "# Readme Title\n\nReadme summary.",
        "tool",
      ),
    ).toEqual({ title: "Acme", description: "Readme summary.", keywords: ["cli", "build", "tools"] });
    expect(
      descriptionFields({ [DescriptionAnnotation.Description]: "From annotation" }, "# T\n\nx", "tool"),
    ).toEqual({ title: "T", description: "From annotation", keywords: [] });
  });

  it("falls back to the package's own name and an empty description", () => {
    expect(descriptionFields(undefined, undefined, "tool")).toEqual({
      title: "tool",
      description: "",
      keywords: [],
    });
    expect(descriptionFields({ [DescriptionAnnotation.Title]: "  " }, "no heading", "tool").title).toBe(
      "tool",
    );
  });
});
