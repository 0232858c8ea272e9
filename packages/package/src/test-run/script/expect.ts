import {
  Dict,
  equals,
  hostFunction,
  List,
  type Namespace,
  namespace,
  repr,
  SSet,
  StarlarkError,
  Struct,
  Tuple,
  truth,
  typeName,
  type Value,
} from "@pkg/starlark";
import { RE2JS } from "re2js";
import type { AssertionKind } from "../report.js";
import { RUN_RESULT } from "./run-result.js";
import { EXPECT_PREFIX, SCRIPT_ERROR } from "./tags.js";

/** The longest rendering of one side of an expectation in its message. */
const SIDE_LIMIT = 2000;

function side(value: Value): string {
  const text = repr(value);
  return text.length <= SIDE_LIMIT ? text : `${text.slice(0, SIDE_LIMIT)}... (${text.length} characters)`;
}

/** Fails the script with an expectation's message: `expect.<kind>: [<msg>: ]<what>`. */
function unmet(kind: AssertionKind, msg: Value | undefined, what: string): never {
  const prefix = typeof msg === "string" && msg !== "" ? `${msg}: ` : "";
  throw new StarlarkError(`expect.${kind}: ${prefix}${what}`, { tag: `${EXPECT_PREFIX}${kind}` });
}

const misuse = (message: string) => new StarlarkError(message, { tag: SCRIPT_ERROR });

function checkMessage(msg: Value | undefined, fn: string): void {
  if (msg !== undefined && msg !== null && typeof msg !== "string")
    throw misuse(`expect.${fn}: msg must be a string, not ${typeName(msg)}`);
}

function contains(container: Value, item: Value): boolean {
  if (typeof container === "string") {
    if (typeof item !== "string")
      throw misuse(`expect.contains: looking for ${typeName(item)} in a string; want a string`);
    return container.includes(item);
  }
  if (container instanceof List || container instanceof Tuple)
    return container.elems.some((e) => equals(e, item));
  if (container instanceof Dict || container instanceof SSet) return container.has(item);
  throw misuse(`expect.contains: ${typeName(container)} is not a string, list, tuple, dict or set`);
}

/** The `expect` namespace: expectations whose failure ends the test as failed, with both sides in the message. */
export function expectNamespace(): Namespace {
  return namespace("expect", {
    ok: hostFunction("ok(result, msg=None)", ({ result, msg }) => {
      checkMessage(msg, "ok");
      if (!(result instanceof Struct) || result.type !== RUN_RESULT)
        throw misuse(`expect.ok: want the result of pkg.run, not ${typeName(result ?? null)}`);
      const code = result.get("exit_code");
      if (code === 0) return null;
      const stderr = result.get("stderr");
      const tail =
        typeof stderr === "string" && stderr.trim() !== ""
          ? `; stderr: ${stderr.trimEnd().slice(-SIDE_LIMIT)}`
          : "";
      return unmet("ok", msg, `exit code ${repr(code ?? null)}, want 0${tail}`);
    }),
    eq: hostFunction("eq(actual, expected, msg=None)", ({ actual, expected, msg }) => {
      checkMessage(msg, "eq");
      const [a, b] = [actual ?? null, expected ?? null];
      return equals(a, b) ? null : unmet("eq", msg, `got ${side(a)}, want ${side(b)}`);
    }),
    ne: hostFunction("ne(actual, unexpected, msg=None)", ({ actual, unexpected, msg }) => {
      checkMessage(msg, "ne");
      const [a, b] = [actual ?? null, unexpected ?? null];
      return equals(a, b) ? unmet("ne", msg, `got ${side(a)}, want anything but ${side(b)}`) : null;
    }),
    true: hostFunction("true(condition, msg=None)", ({ condition, msg }) => {
      checkMessage(msg, "true");
      const value = condition ?? null;
      return truth(value) ? null : unmet("true", msg, `got ${side(value)}, want a true value`);
    }),
    false: hostFunction("false(condition, msg=None)", ({ condition, msg }) => {
      checkMessage(msg, "false");
      const value = condition ?? null;
      return truth(value) ? unmet("false", msg, `got ${side(value)}, want a false value`) : null;
    }),
    contains: hostFunction("contains(container, item, msg=None)", ({ container, item, msg }) => {
      checkMessage(msg, "contains");
      const [c, i] = [container ?? null, item ?? null];
      return contains(c, i) ? null : unmet("contains", msg, `${side(c)} does not contain ${side(i)}`);
    }),
    matches: hostFunction("matches(text, pattern, msg=None)", ({ text, pattern, msg }) => {
      checkMessage(msg, "matches");
      if (typeof text !== "string" || typeof pattern !== "string")
        throw misuse(
          `expect.matches: want a string and a pattern, not ${typeName(text ?? null)} and ${typeName(pattern ?? null)}`,
        );
      let regex: RE2JS;
      try {
        regex = RE2JS.compile(pattern);
      } catch (error) {
        throw misuse(
          `expect.matches: invalid pattern ${repr(pattern)}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return regex.matcher(text).find()
        ? null
        : unmet("matches", msg, `${side(text)} does not match ${side(pattern)}`);
    }),
    fail: hostFunction("fail(msg)", ({ msg }) => {
      if (typeof msg !== "string")
        throw misuse(`expect.fail: msg must be a string, not ${typeName(msg ?? null)}`);
      return unmet("fail", undefined, msg);
    }),
  });
}
