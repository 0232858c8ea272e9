import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Logger, silentTasks } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { createTestCa, startHttpServer, type TempDir, type TestCa, tempDir } from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { DEFAULT_GENERATOR_TIMEOUT_SECONDS } from "../spec/generator.js";
import type { BoundVersion, Versions } from "../spec/versions.js";
import { takeForRun } from "./backfill.js";
import { MAX_BOUND_BYTES } from "./bound-value.js";
import { isInBounds, type ResolvedBounds, resolveBounds, selectInWindow } from "./window.js";

describe("the window (pure)", () => {
  const bounds = (b: Partial<ResolvedBounds>): ResolvedBounds => ({
    min_inclusive: true,
    max_inclusive: false,
    ...b,
  });
  const cases: Array<[string, Partial<ResolvedBounds>, string, boolean]> = [
    ["no bounds admit anything", {}, "0.0.1", true],
    ["bare min is inclusive", { min: "1.2.0" }, "1.2.0", true],
    ["below min", { min: "1.2.0" }, "1.1.9", false],
    ["exclusive min refuses its edge", { min: "1.2.0", min_inclusive: false }, "1.2.0", false],
    ["exclusive min admits above", { min: "1.2.0", min_inclusive: false }, "1.2.1", true],
    ["a pre-release of min sits below it", { min: "1.2.0" }, "1.2.0-rc1", false],
    ["bare max is exclusive", { max: "2.0.0" }, "2.0.0", false],
    ["below an exclusive max", { max: "2.0.0" }, "1.99.99", true],
    ["a pre-release of an exclusive max is inside", { max: "2.0.0" }, "2.0.0-rc1", true],
    ["inclusive max admits its edge", { max: "2.0.0", max_inclusive: true }, "2.0.0", true],
    ["above an inclusive max", { max: "2.0.0", max_inclusive: true }, "2.0.1", false],
    ["numeric, not text, order", { min: "1.9" }, "1.10", true],
    ["both edges", { min: "1.0", max: "1.5" }, "1.4.9", true],
    ["both edges, above", { min: "1.0", max: "1.5" }, "1.5", false],
  ];
  test.each(cases)("%s: %s %s -> %s", (_name, given, version, inside) => {
    expect(isInBounds(version, bounds(given))).toBe(inside);
  });

  test("skip_prereleases drops pre-releases; the window still applies; order is kept", () => {
    const listed = [
      { version: "2.1.0", prerelease: false },
      { version: "2.0.0-rc1", prerelease: true },
      { version: "1.0.0", prerelease: false },
      { version: "1.5.0", prerelease: false },
    ];
    const window = bounds({ min: "1.1.0" });
    expect(selectInWindow(listed, window, { skipPrereleases: false }).map((v) => v.version)).toEqual([
      "2.1.0",
      "2.0.0-rc1",
      "1.5.0",
    ]);
    expect(selectInWindow(listed, window, { skipPrereleases: true }).map((v) => v.version)).toEqual([
      "2.1.0",
      "1.5.0",
    ]);
  });
});

describe("new_per_run and backfill", () => {
  const outstanding = ["1.10.0", "1.2.0", "1.9.0", "2.0.0-rc1", "2.0.0"].map((version) => ({ version }));
  const cases: Array<[Pick<Versions, "new_per_run" | "backfill"> | undefined, string[]]> = [
    [undefined, ["2.0.0", "2.0.0-rc1", "1.10.0", "1.9.0", "1.2.0"]],
    [{ backfill: "newest_first" }, ["2.0.0", "2.0.0-rc1", "1.10.0", "1.9.0", "1.2.0"]],
    [{ backfill: "newest_first", new_per_run: 2 }, ["2.0.0", "2.0.0-rc1"]],
    [{ backfill: "oldest_first", new_per_run: 2 }, ["1.2.0", "1.9.0"]],
    [{ backfill: "oldest_first", new_per_run: 10 }, ["1.2.0", "1.9.0", "1.10.0", "2.0.0-rc1", "2.0.0"]],
  ];
  test.each(cases)("%j takes %j", (versions, taken) => {
    expect(takeForRun(outstanding, versions).map((v) => v.version)).toEqual(taken);
  });
});

describe("resolving bounds", () => {
  let ca: TestCa;
  let dir: TempDir;
  let lines: string[];
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    ca = await createTestCa();
  });
  afterAll(async () => {
    await ca.remove();
  });
  beforeEach(async () => {
    dir = await tempDir("window-");
    lines = [];
    cleanups.push(() => dir.remove());
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function deps(extraEnv: NodeJS.ProcessEnv = {}) {
    const env = { HOME: dir.path, PATH: process.env.PATH, SSL_CERT_FILE: ca.certPath, ...extraEnv };
    const http = createHttpClient({ env });
    cleanups.push(() => http.close());
    const log: Logger = {
      info: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      progress() {},
      tasks: silentTasks,
    };
    return { http, specDir: dir.path, env, log };
  }

  /** An https server whose answer a test sets and changes; every request is recorded. */
  async function boundServer(initial: { status: number; body: string | Buffer }) {
    const answer = { ...initial };
    const site = await startHttpServer(
      (_req, res) => {
        res.writeHead(answer.status, { "content-type": "text/plain" });
        res.end(answer.body);
      },
      { tls: ca },
    );
    cleanups.push(() => site.stop());
    return { site, answer };
  }

  const generator = (
    command: string[],
    timeout_seconds = DEFAULT_GENERATOR_TIMEOUT_SECONDS,
  ): BoundVersion => ({
    generator: { command, timeout_seconds },
  });
  const window = (
    min?: BoundVersion,
    max?: BoundVersion,
    inclusive?: { min?: boolean; max?: boolean },
  ): Versions => ({
    backfill: "newest_first",
    ...(min === undefined ? {} : { min: { version: min, inclusive: inclusive?.min ?? true } }),
    ...(max === undefined ? {} : { max: { version: max, inclusive: inclusive?.max ?? false } }),
  });

  test("unset edges carry no version, and their flags keep the bare-string meaning", async () => {
    expect(await resolveBounds(undefined, deps())).toEqual({ min_inclusive: true, max_inclusive: false });
    expect(await resolveBounds({ backfill: "oldest_first" }, deps())).toEqual({
      min_inclusive: true,
      max_inclusive: false,
    });
  });

  test("literal and object forms; url, generator and file values are trimmed and logged once", async () => {
    const { site } = await boundServer({ status: 200, body: "  2.4.0\n" });
    expect(await resolveBounds(window("1.0.0", "3.0.0", { min: false, max: true }), deps())).toEqual({
      min: "1.0.0",
      min_inclusive: false,
      max: "3.0.0",
      max_inclusive: true,
    });
    expect(lines).toEqual([]);

    await writeFile(join(dir.path, "min.txt"), "\n1.1.0\n");
    const fromFile = await resolveBounds(window({ file: "min.txt" }, { url: `${site.url}/max` }), deps());
    expect(fromFile).toEqual({ min: "1.1.0", min_inclusive: true, max: "2.4.0", max_inclusive: false });
    expect(lines.sort()).toEqual([
      `versions.max resolved to 2.4.0 (from ${site.url}/max)`,
      "versions.min resolved to 1.1.0 (from file min.txt)",
    ]);

    const fromGenerator = await resolveBounds(
      window(generator(["sh", "-c", 'printf "%s\\n" "$BOUND_MIN"'])),
      deps({ BOUND_MIN: "0.9.1" }),
    );
    expect(fromGenerator).toEqual({ min: "0.9.1", min_inclusive: true, max_inclusive: false });
  });

  test("a min read from a URL that moves downward re-opens the backfill", async () => {
    const { site, answer } = await boundServer({ status: 200, body: "1.5.0" });
    const upstream = ["1.0.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0", "2.0.0"].map((version) => ({
      version,
      prerelease: false,
    }));
    const versions: Versions = { ...window({ url: `${site.url}/min` }), new_per_run: 2 };
    const published = new Set<string>();
    const run = async () => {
      const bounds = await resolveBounds(versions, deps());
      const outstanding = selectInWindow(upstream, bounds, { skipPrereleases: false }).filter(
        (v) => !published.has(v.version),
      );
      const taken = takeForRun(outstanding, versions).map((v) => v.version);
      for (const version of taken) published.add(version);
      return taken;
    };

    expect(await run()).toEqual(["2.0.0", "1.6.0"]);
    expect(await run()).toEqual(["1.5.0"]);
    expect(await run()).toEqual([]);
    answer.body = "1.2.0\n";
    // more work again, newest first, walking down toward the new pointer, new_per_run at a time
    expect(await run()).toEqual(["1.4.0", "1.3.0"]);
    expect(await run()).toEqual(["1.2.0"]);
    expect(await run()).toEqual([]);
    expect(site.requests).toHaveLength(6);
  });

  describe("every failure is exit 69 with a clear line, never an unbounded window", () => {
    const failures: Array<
      [string, (url: string) => BoundVersion, { status: number; body: string | Buffer }, RegExp]
    > = [
      ["non-2xx", (url) => ({ url }), { status: 503, body: "down" }, /versions\.min: .* answered HTTP 503$/],
      [
        "body over 64 KiB",
        (url) => ({ url }),
        { status: 200, body: Buffer.alloc(MAX_BOUND_BYTES + 1, "1") },
        /versions\.min: version bound URL is unreachable: .*larger than 65536 bytes/,
      ],
      [
        "not a version",
        (url) => ({ url }),
        { status: 200, body: "<html>latest</html>" },
        /versions\.min: https:\/\/.* gave "<html>latest<\/html>", which is not a version/,
      ],
      [
        "empty",
        (url) => ({ url }),
        { status: 200, body: " \n" },
        /gave an empty value; expected one version$/,
      ],
      [
        "two versions",
        (url) => ({ url }),
        { status: 200, body: "1.0.0\n1.1.0" },
        /gave "1\.0\.0\\n1\.1\.0", which is not a version/,
      ],
      [
        "a tag, not a version",
        (url) => ({ url }),
        { status: 200, body: "v1.2.3" },
        /which is not a version: starts with "v"/,
      ],
      [
        "generator non-zero",
        () => generator(["sh", "-c", "echo nope >&2; exit 2"]),
        { status: 200, body: "" },
        /^versions\.min: generator \["sh","-c",.*\] exited with status 2: nope$/,
      ],
      [
        "generator timeout",
        () => generator(["sleep", "30"], 1),
        { status: 200, body: "" },
        /^versions\.min: generator \["sleep","30"\] timed out after 1 s and was killed$/,
      ],
      [
        "generator empty",
        () => generator(["true"]),
        { status: 200, body: "" },
        /^versions\.min: generator \["true"\] gave an empty value/,
      ],
      [
        "file missing",
        () => ({ file: "nope.txt" }),
        { status: 200, body: "" },
        /file .*nope\.txt cannot be read/,
      ],
    ];
    test.each(failures)("%s", async (_name, bound, answer, message) => {
      const { site } = await boundServer(answer);
      const resolving = resolveBounds(window(bound(`${site.url}/min`), "9.0.0"), deps());
      await expect(resolving).rejects.toMatchObject({ exitCode: 69 });
      await expect(resolving).rejects.toThrow(message);
    });

    test("unreachable", async () => {
      const { site } = await boundServer({ status: 200, body: "1.0.0" });
      await site.stop();
      const resolving = resolveBounds(window(undefined, { url: `${site.url}/max` }), deps());
      await expect(resolving).rejects.toMatchObject({ exitCode: 69 });
      await expect(resolving).rejects.toThrow(
        `versions.max: version bound URL is unreachable: ${site.url}/max`,
      );
    });

    test("untrusted TLS", async () => {
      const { site } = await boundServer({ status: 200, body: "1.0.0" });
      const untrusted = { ...deps(), http: createHttpClient({ env: { HOME: dir.path } }) };
      cleanups.push(() => untrusted.http.close());
      const resolving = resolveBounds(window({ url: `${site.url}/min` }), untrusted);
      await expect(resolving).rejects.toMatchObject({ exitCode: 69 });
    });

    test("a file over 64 KiB", async () => {
      await writeFile(join(dir.path, "big.txt"), Buffer.alloc(MAX_BOUND_BYTES + 1, "1"));
      const resolving = resolveBounds(window({ file: "big.txt" }), deps());
      await expect(resolving).rejects.toMatchObject({ exitCode: 69 });
      await expect(resolving).rejects.toThrow(/big\.txt is larger than 65536 bytes/);
    });

    test("a Python source's bound must be PEP 440", async () => {
      await writeFile(join(dir.path, "min.txt"), "1.0.0rc1\n");
      const bound = window({ file: "min.txt" });
      expect((await resolveBounds(bound, { ...deps(), python: true })).min).toBe("1.0.0rc1");
      await writeFile(join(dir.path, "min.txt"), "1.0.0-rc.1.x\n");
      const resolving = resolveBounds(bound, { ...deps(), python: true });
      await expect(resolving).rejects.toMatchObject({ exitCode: 69 });
      await expect(resolving).rejects.toThrow(/expected a PEP 440 version/);
    });
  });
});
