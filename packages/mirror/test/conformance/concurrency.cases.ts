import { availableParallelism } from "node:os";
import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, spec } from "../support/spec-case.js";

const concurrency = (fields: Fields) => spec({ concurrency: fields });
const field = (key: string) => (s: Record<string, unknown>) =>
  (s.concurrency as Record<string, unknown>)[key];

export const cases: ConformanceCase[] = [
  {
    rule: "concurrency: an empty mapping takes every default (max_bundles half the cores, at least 1)",
    yaml: concurrency({}),
    exit: 0,
    check: (s) =>
      expect(s.concurrency).toEqual({
        max_downloads: 8,
        max_bundles: Math.max(1, Math.floor(availableParallelism() / 2)),
        rate_limit_ms: 0,
        max_retries: 3,
        compression_threads: 0,
      }),
  },
  {
    rule: "concurrency: every setting given is kept",
    yaml: concurrency({
      max_downloads: 2,
      max_bundles: 3,
      rate_limit_ms: 250,
      max_retries: 5,
      compression_threads: 4,
    }),
    exit: 0,
    check: (s) =>
      expect(s.concurrency).toEqual({
        max_downloads: 2,
        max_bundles: 3,
        rate_limit_ms: 250,
        max_retries: 5,
        compression_threads: 4,
      }),
  },
  {
    rule: "concurrency: must be a mapping",
    yaml: spec({ concurrency: 4 }),
    exit: 65,
    path: "concurrency",
    message: /expected a mapping/,
  },
  {
    rule: "concurrency: unknown keys are refused, naming the closest known key",
    yaml: concurrency({ max_download: 4 }),
    exit: 65,
    path: "concurrency.max_download",
    message: /did you mean "max_downloads"/,
  },
  {
    rule: "concurrency.max_pushes: accepted and ignored",
    yaml: concurrency({ max_pushes: 4 }),
    exit: 0,
    check: (s) => expect(s.concurrency).not.toHaveProperty("max_pushes"),
  },
  {
    rule: "concurrency.max_pushes: still a whole number when given",
    yaml: concurrency({ max_pushes: "many" }),
    exit: 65,
    path: "concurrency.max_pushes",
    message: /whole number/,
  },
  {
    rule: "concurrency.max_downloads: at least 1",
    yaml: concurrency({ max_downloads: 0 }),
    exit: 65,
    path: "concurrency.max_downloads",
    message: /at least 1/,
  },
  {
    rule: "concurrency.max_downloads: a whole number, not text",
    yaml: concurrency({ max_downloads: "8" }),
    exit: 65,
    path: "concurrency.max_downloads",
    message: /whole number/,
  },
  {
    rule: "concurrency.max_bundles: at least 1",
    yaml: concurrency({ max_bundles: 0 }),
    exit: 65,
    path: "concurrency.max_bundles",
    message: /at least 1/,
  },
  {
    rule: "concurrency.max_bundles: 1 is accepted",
    yaml: concurrency({ max_bundles: 1 }),
    exit: 0,
    check: (s) => expect(field("max_bundles")(s)).toBe(1),
  },
  {
    rule: "concurrency.max_bundles: not a fraction",
    yaml: concurrency({ max_bundles: 1.5 }),
    exit: 65,
    path: "concurrency.max_bundles",
    message: /whole number/,
  },
  {
    rule: "concurrency.rate_limit_ms: 0 means no delay",
    yaml: concurrency({ rate_limit_ms: 0 }),
    exit: 0,
    check: (s) => expect(field("rate_limit_ms")(s)).toBe(0),
  },
  {
    rule: "concurrency.rate_limit_ms: not negative",
    yaml: concurrency({ rate_limit_ms: -1 }),
    exit: 65,
    path: "concurrency.rate_limit_ms",
    message: /at least 0/,
  },
  {
    rule: "concurrency.max_retries: 0 is a single attempt",
    yaml: concurrency({ max_retries: 0 }),
    exit: 0,
    check: (s) => expect(field("max_retries")(s)).toBe(0),
  },
  {
    rule: "concurrency.max_retries: not negative",
    yaml: concurrency({ max_retries: -1 }),
    exit: 65,
    path: "concurrency.max_retries",
    message: /at least 0/,
  },
  {
    rule: "concurrency.compression_threads: 0 (auto) written out",
    yaml: concurrency({ compression_threads: 0 }),
    exit: 0,
    check: (s) => expect(field("compression_threads")(s)).toBe(0),
  },
  {
    rule: "concurrency.compression_threads: not negative",
    yaml: concurrency({ compression_threads: -2 }),
    exit: 65,
    path: "concurrency.compression_threads",
    message: /at least 0/,
  },
];
