import type { SectionContext } from "./context.js";
import type { Field } from "./field.js";

/**
 * One `tests[]` entry: a name and exactly one way to run it. `script` is kept as written; it
 * resolves from the repository root, and `generate ci` (not the loader) checks that it exists.
 */
export type TestEntry = { name: string } & (
  | { command: string }
  | { script: string }
  | { script_inline: string }
);

const TEST_NAME = /^[a-zA-Z][a-zA-Z0-9_-]*$/;
const KINDS = ["command", "script", "script_inline"] as const;

/** The top-level `tests` list. */
export function readTests(field: Field, _ctx: SectionContext): TestEntry[] | undefined {
  return readTestList(field);
}

/**
 * A list of test entries with names unique within it: the top-level `tests` and each
 * `platforms.<p>.tests` (which replaces the top-level list) are read by this.
 */
export function readTestList(field: Field): TestEntry[] | undefined {
  const items = field.list();
  if (!items) return undefined;
  const seen = new Set<string>();
  const out: TestEntry[] = [];
  for (const item of items) {
    const entry = readTestEntry(item, seen);
    if (entry) out.push(entry);
  }
  return out.length === items.length ? out : undefined;
}

function readTestEntry(item: Field, seen: Set<string>): TestEntry | undefined {
  const map = item.map();
  if (!map) return undefined;
  map.only(["name", ...KINDS]);
  const nameField = map.require("name");
  let name = nameField?.matching(TEST_NAME, "a test name (^[a-zA-Z][a-zA-Z0-9_-]*$)");
  if (name !== undefined && nameField) {
    if (seen.has(name)) name = nameField.fail(`test name ${JSON.stringify(name)} is used twice in this list`);
    else seen.add(name);
  }
  const kind = map.exactlyOne(KINDS);
  if (kind === undefined) return undefined;
  const body = map.get(kind);
  const text = body.string({ nonEmpty: true });
  if (text === undefined) return undefined;
  if (kind === "command" && /[\r\n]/.test(text.trimEnd())) {
    return body.fail("a command is a single line; use script_inline or script for several lines");
  }
  if (name === undefined) return undefined;
  switch (kind) {
    case "command":
      return { name, command: text.trimEnd() };
    case "script":
      return { name, script: text };
    case "script_inline":
      return { name, script_inline: text };
  }
}
