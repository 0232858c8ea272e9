/** A word the shell reads as itself. */
const shellSafe = /^[A-Za-z0-9_./][A-Za-z0-9_./@=+-]*$/;
/** A YAML plain scalar that reads as a string: no indicator or digit first, no `: `, ` #` or edge
 *  spaces, and not a word YAML 1.1 (GitLab's parser) or 1.2 reads as a boolean or null. */
const yamlPlainSafe = /^[A-Za-z_/][A-Za-z0-9_./@=+' -]*(?<! )$/;
const yamlKeyword = /^(y|n|yes|no|on|off|true|false|null)$/i;

/** A shell word for `value`: as is when it needs no quoting, else single-quoted. */
export function shellWord(value: string): string {
  return shellSafe.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A YAML scalar for `value`: plain when that is unambiguous, else double-quoted (JSON's escapes
 *  are a subset of YAML's double-quoted escapes). */
export function yamlScalar(value: string): string {
  return yamlPlainSafe.test(value) && !yamlKeyword.test(value) ? value : JSON.stringify(value);
}

/** Text that stays on its comment line whatever `value` holds. */
export function yamlCommentText(value: string): string {
  return [...value].some(breaksLine) ? JSON.stringify(value) : value;
}

function breaksLine(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029;
}
