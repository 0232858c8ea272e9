import { lstatSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { StarlarkError } from "@pkg/starlark";
import { SCRIPT_ERROR } from "./tags.js";

/** The two directories a test script may reach: its scratch directory (writable) and the package (read only). */
export interface ScriptRoots {
  scratch: string;
  package: string;
}

/** `/` between components on every OS, as scripts see paths. */
export function slashed(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** A misuse of the host API by the script: its author must change it (exit 65). */
const misuse = (message: string) => new StarlarkError(message, { tag: SCRIPT_ERROR });

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The deepest existing ancestor of `path` (itself when it exists), resolved through its links. */
function realExisting(path: string): { real: string; rest: string } {
  let current = path;
  let rest = "";
  for (;;) {
    try {
      return { real: realpathSync(current), rest };
    } catch {
      const parent = dirname(current);
      if (parent === current) return { real: current, rest };
      rest = rest === "" ? relative(parent, current) : join(relative(parent, current), rest);
      current = parent;
    }
  }
}

/**
 * The file a script names: a relative path is taken from the scratch directory; an absolute one
 * must be inside one of `allowed` (the package only when reading). A `..` component is refused,
 * and so is a path that reaches outside through a symbolic link. Failures are script errors (65).
 */
export function scriptPath(text: string, roots: ScriptRoots, access: "read" | "write", what: string): string {
  if (text === "") throw misuse(`${what}: the path is empty`);
  if (text.split(/[\\/]/).includes(".."))
    throw misuse(`${what}: ${JSON.stringify(text)}: ".." is not allowed`);
  const allowed = access === "read" ? [roots.scratch, roots.package] : [roots.scratch];
  const path = isAbsolute(text) ? resolve(text) : resolve(roots.scratch, text);
  const where =
    access === "read"
      ? "the scratch directory or the package"
      : "the scratch directory (the package is read-only)";
  if (!allowed.some((root) => inside(root, path)))
    throw misuse(`${what}: ${JSON.stringify(text)} is not inside ${where}`);
  if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() && realExisting(path).rest !== "") {
    throw misuse(`${what}: ${JSON.stringify(text)} is a broken symbolic link`);
  }
  const { real, rest } = realExisting(path);
  const realRoots = allowed.map((root) => realExisting(root).real);
  if (!realRoots.some((root) => inside(root, join(real, rest)))) {
    throw misuse(`${what}: ${JSON.stringify(text)} leads outside ${where} through a symbolic link`);
  }
  return path;
}
