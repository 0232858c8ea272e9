import type { Checker } from "./checker.js";

const dependencyPlaceholder = /^deps\.([a-z0-9][a-z0-9._-]*)\.installPath$/;

/**
 * Checks the placeholders of a value: `${installPath}` and `${deps.<name>.installPath}` naming a
 * declared dependency; anything else written `${...}`, or a `${` never closed, is refused.
 * A `$` not followed by `{` is literal text.
 */
export function checkPlaceholders(
  value: string,
  path: string,
  dependencyNames: ReadonlySet<string>,
  check: Checker,
) {
  let from = 0;
  for (let start = value.indexOf("${", from); start >= 0; start = value.indexOf("${", from)) {
    const end = value.indexOf("}", start);
    if (end < 0) check.fail(path, `has a "\${" that is never closed`);
    const name = value.slice(start + 2, end);
    const dependency = dependencyPlaceholder.exec(name)?.[1];
    if (name !== "installPath" && dependency === undefined) {
      check.fail(
        path,
        `has an unknown placeholder \${${name}} (known: \${installPath}, \${deps.<name>.installPath})`,
      );
    }
    if (dependency !== undefined && !dependencyNames.has(dependency)) {
      check.fail(path, `refers to dependency "${dependency}", which is not declared`);
    }
    from = end + 1;
  }
}
