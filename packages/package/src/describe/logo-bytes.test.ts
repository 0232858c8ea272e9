import { describe, expect, it } from "vitest";
import { logoMatches } from "./logo-bytes.js";

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
const svg = (text: string) => Buffer.from(text);

describe("logoMatches", () => {
  it.each([
    ["a PNG", png, "png", true],
    ["an SVG named .png", svg("<svg xmlns='http://www.w3.org/2000/svg'/>"), "png", false],
    ["a bare SVG", svg('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), "svg", true],
    [
      "an SVG behind a BOM, an XML declaration, a comment and a doctype",
      svg('\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg>\n<svg>\n</svg>'),
      "svg",
      true,
    ],
    ["a PNG named .svg", png, "svg", false],
    ["HTML named .svg", svg("<html><svg></svg></html>"), "svg", false],
    ["plain text named .svg", svg("logo"), "svg", false],
  ] as const)("%s", (_, bytes, kind, expected) => {
    expect(logoMatches(bytes, kind)).toBe(expected);
  });
});
