import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { redact } from "@pkg/common";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpecError } from "../../src/spec/diagnostics.js";
import { loadMirrorSpec } from "../../src/spec/loader.js";
import { type SpecObject, spec } from "../support/spec-case.js";
import { secretRefusals } from "./sign.cases.js";

// The conformance table checks the first diagnostic; here every diagnostic and the thrown
// message are checked, and a refused literal secret is also scrubbed from later log lines.
let work: TempDir;
beforeAll(async () => {
  work = await tempDir("mirror-sign-secrets-");
});
afterAll(async () => {
  await work?.remove();
});

let counter = 0;
async function refusal(signValue: unknown): Promise<SpecError> {
  const dir = join(work.path, `case-${counter++}`);
  await mkdir(join(dir, ".git"), { recursive: true });
  await writeFile(join(dir, "mirror.yml"), spec({ sign: signValue as SpecObject[string] }));
  const error = await loadMirrorSpec(join(dir, "mirror.yml")).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpecError);
  return error as SpecError;
}

describe("sign refusals never show the value", () => {
  it.each(secretRefusals.map((r) => [r.rule, r] as const))("%s", async (_rule, row) => {
    const error = await refusal(row.sign);
    expect(error.exitCode).toBe(row.exit);
    for (const text of [error.message, ...error.diagnostics.map((d) => d.message)]) {
      expect(text).not.toContain(row.secret);
    }
  });

  it("registers a refused literal passphrase or identity token for redaction", async () => {
    const literals = secretRefusals.filter((r) => /literal (passphrase|token) is refused$/.test(r.rule));
    expect(literals.length).toBe(2);
    for (const row of literals) {
      await refusal(row.sign);
      expect(redact(`upstream said ${row.secret}`)).toBe("upstream said ***");
    }
  });
});
