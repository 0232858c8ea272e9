import { expect } from "vitest";
import { type ConformanceCase, spec } from "../support/spec-case.js";

export const cases: ConformanceCase[] = [
  {
    rule: "annotations: keys map to values kept verbatim",
    yaml: spec({
      annotations: {
        "org.opencontainers.image.vendor": "Acme Corp",
        "org.opencontainers.image.source": "https://example.com/mirror",
        "com.example.note": "  two\nlines  ",
      },
    }),
    exit: 0,
    check: (s) =>
      expect(s.annotations).toEqual({
        "org.opencontainers.image.vendor": "Acme Corp",
        "org.opencontainers.image.source": "https://example.com/mirror",
        "com.example.note": "  two\nlines  ",
      }),
  },
  {
    rule: "annotations: an empty mapping loads",
    yaml: spec({ annotations: {} }),
    exit: 0,
    check: (s) => expect(s.annotations).toEqual({}),
  },
  {
    rule: "annotations: a value may itself contain '=' (only keys may not)",
    yaml: spec({ annotations: { "com.example.query": "a=b&c=d" } }),
    exit: 0,
    check: (s) => expect(s.annotations).toEqual({ "com.example.query": "a=b&c=d" }),
  },
  {
    rule: "annotations: a key containing '=' is refused (passed as --annotation KEY=VALUE)",
    yaml: spec({ annotations: { "com.example.a=b": "x" } }),
    exit: 65,
    path: 'annotations["com.example.a=b"]',
    message: /contains "="/,
  },
  {
    rule: "annotations: an empty key is refused",
    yaml: spec({ annotations: { "": "x" } }),
    exit: 65,
    path: 'annotations[""]',
    message: /must not be empty/,
  },
  {
    rule: "annotations: a whitespace-only key is refused as empty",
    yaml: spec({ annotations: { "  ": "x" } }),
    exit: 65,
    path: 'annotations["  "]',
    message: /must not be empty/,
  },
  {
    rule: "annotations: a value must be a string (quote numbers)",
    yaml: spec({ annotations: { "com.example.build": 42 } }),
    exit: 65,
    path: "annotations.com.example.build",
    message: /expected a string/,
  },
  {
    rule: "annotations: a null value is refused",
    yaml: spec({ annotations: { "com.example.build": null } }),
    exit: 65,
    path: "annotations.com.example.build",
  },
  {
    rule: "annotations: must be a mapping",
    yaml: spec({ annotations: ["org.opencontainers.image.vendor=Acme"] }),
    exit: 65,
    path: "annotations",
    message: /expected a mapping/,
  },
];
