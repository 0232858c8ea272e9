/**
 * What `--check` compares: a file's text with every `uses:` pin (`@<ref>` and its trailing
 * comment) removed, so a bumped pin is no drift while another action still is.
 */
const USES_PIN = /^([ \t]*(?:-[ \t]+)?uses:[ \t]*[^@\s#]+)@[^\s#]+(?:[ \t]*#[^\n]*)?$/gm;

export function normalisePins(text: string): string {
  return text.replace(USES_PIN, "$1");
}

/** Whether `onDisk` differs from `rendered` other than in action pins. */
export function hasDrifted(rendered: string, onDisk: string): boolean {
  return normalisePins(rendered) !== normalisePins(onDisk);
}
