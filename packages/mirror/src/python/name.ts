/** PEP 508 distribution names and their PEP 503 normal form. */

const VALID_NAME = /^(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$/;
const NORMALIZED_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The PEP 503 normal form: lowercase, every run of `-`, `_`, `.` one `-`. */
export function normalizeName(name: string): string {
  return name.replace(/[-_.]+/g, "-").toLowerCase();
}

/** Whether `name` is a distribution name PEP 508 admits. */
export function isValidName(name: string): boolean {
  return VALID_NAME.test(name);
}

/** Whether `name` is already in PEP 503 normal form (what a PEP 751 lock must record). */
export function isNormalizedName(name: string): boolean {
  return NORMALIZED_NAME.test(name);
}
