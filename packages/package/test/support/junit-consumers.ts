// Independent JUnit consumers for the tests of what `pkg package test --junit` writes:
// - xmllint (Debian libxml2-utils, installed by scripts/test.mjs) validating against the JUnit
//   schema Jenkins and Surefire-style tools use (junit-10.xsd, as pytest ships it in its sdist);
// - junitparser (PyPI), a JUnit reader, parsing the file back.
// Both are fetched once with pip into node_modules/.cache, pinned.
import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pipTarget, runCommand, spawnCollect } from "@pkg/testkit";

const PYTEST_SDIST = "pytest==9.2.0";
const XSD_IN_SDIST = "pytest-9.2.0/testing/example_scripts/junit-10.xsd";
const JUNITPARSER = "junitparser==5.0.3";
const XMLLINT = "/usr/bin/xmllint";

const cache = fileURLToPath(new URL("../../../../node_modules/.cache/pkg-junit-consumers/", import.meta.url));

export interface JUnitConsumers {
  /** Validates `file` against the JUnit schema: xmllint's exit code and what it said. */
  validate(file: string): Promise<{ code: number; output: string }>;
  /** The file as junitparser reads it. */
  junitparser(file: string): Promise<ParsedByJunitparser>;
}

export interface ParsedByJunitparser {
  suites: Array<{
    name: string;
    tests: number;
    failures: number;
    errors: number;
    skipped: number;
    properties: Record<string, string>;
    cases: Array<{
      name: string;
      classname: string;
      time: number;
      results: Array<{ kind: string; type: string | null; message: string | null; text: string | null }>;
      system_out: string | null;
      system_err: string | null;
    }>;
  }>;
}

const READER = `
import json, sys
from junitparser import JUnitXml, TestSuite
xml = JUnitXml.fromfile(sys.argv[1])
suites = [xml] if isinstance(xml, TestSuite) else list(xml)
out = []
for s in suites:
    cases = []
    for c in s:
        cases.append({
            "name": c.name, "classname": c.classname, "time": c.time,
            "results": [{"kind": type(r).__name__, "type": r.type, "message": r.message, "text": r.text} for r in c.result],
            "system_out": c.system_out, "system_err": c.system_err,
        })
    out.append({
        "name": s.name, "tests": s.tests, "failures": s.failures, "errors": s.errors, "skipped": s.skipped,
        "properties": {p.name: p.value for p in s.properties()}, "cases": cases,
    })
json.dump({"suites": out}, sys.stdout)
`;

/** Gets both consumers ready (pip fetches them on first use); fails saying what is missing. */
export async function junitConsumers(): Promise<JUnitConsumers> {
  if (!existsSync(XMLLINT)) {
    throw new Error(`${XMLLINT} is missing: apt-get install libxml2-utils (scripts/test.mjs does this)`);
  }
  const xsd = join(cache, "junit-10.xsd");
  if (!existsSync(xsd)) await fetchSchema(xsd);
  const python = await pipTarget("pkg-junit-consumers", JUNITPARSER, "junitparser");
  return {
    async validate(file) {
      const result = await spawnCollect(XMLLINT, ["--noout", "--schema", xsd, file]);
      return { code: result.code, output: `${result.stdout}${result.stderr}` };
    },
    async junitparser(file) {
      const { stdout } = await runCommand("python3", ["-c", READER, file], {
        env: { ...process.env, PYTHONPATH: python },
      });
      return JSON.parse(stdout) as ParsedByJunitparser;
    },
  };
}

async function fetchSchema(xsd: string): Promise<void> {
  const work = `${xsd}.work-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    await runCommand("python3", [
      "-m",
      "pip",
      "download",
      "--quiet",
      "--no-deps",
      "--no-binary",
      ":all:",
      "-d",
      work,
      PYTEST_SDIST,
    ]);
    await runCommand("tar", ["-xzf", join(work, "pytest-9.2.0.tar.gz"), "-C", work, XSD_IN_SDIST]);
    await rename(join(work, XSD_IN_SDIST), xsd);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
