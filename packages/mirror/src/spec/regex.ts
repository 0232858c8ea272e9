import { RE2JS } from "re2js";
import type { Field } from "./field.js";

/**
 * A user's regular expression compiled as RE2 (Go/Python flavour: `(?P<name>...)` groups, `(?i)`
 * flags), which matches in linear time: no pattern or upstream name can hang the tool. Returns
 * the compiled pattern, or the reason it does not compile.
 */
export function compileRegex(pattern: string): RE2JS | { problem: string } {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { problem: message.replace(/^error parsing regexp: /, "") };
  }
}

/**
 * Reads a regex string and checks that it compiles and holds each of `groups` as a named group.
 * Returns the pattern as written (models keep plain text; `compileRegex` it where it is used).
 */
export function readRegex(field: Field, options: { groups?: readonly string[] } = {}): string | undefined {
  const pattern = field.string({ nonEmpty: true });
  if (pattern === undefined) return undefined;
  const compiled = compileRegex(pattern);
  if ("problem" in compiled)
    return field.fail(`invalid regular expression (RE2 syntax): ${compiled.problem}`);
  const missing = (options.groups ?? []).filter((name) => !(name in compiled.namedGroups()));
  if (missing.length > 0) {
    const names = missing.map((name) => `(?P<${name}>...)`).join(" and ");
    return field.fail(`the regular expression must hold the named group ${names}`);
  }
  return pattern;
}

/** A list of regexes, at least one. */
export function readRegexList(field: Field): string[] | undefined {
  const items = field.list({ nonEmpty: true });
  if (!items) return undefined;
  const patterns = items.map((item) => readRegex(item));
  return patterns.every((p): p is string => p !== undefined) ? patterns : undefined;
}
