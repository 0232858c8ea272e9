import { compareVersions, matchVersion } from "@pkg/package";
import { compareVersionTexts as comparePep440 } from "../python/pep440.js";
import { isPep440Version } from "./pep440.js";
import type { Versions } from "./versions.js";

/**
 * Why literal `versions.min` and `versions.max` leave no version inside the window, or undefined
 * when they do not (or either edge is not a literal, or a literal is not of the source's grammar:
 * that is reported elsewhere). Compared in the source's grammar: PEP 440 for a Python app, the
 * package version order otherwise. Empty: min above max, or min equal to max with an edge exclusive.
 */
export function emptyWindowProblem(versions: Versions, python: boolean): string | undefined {
  const { min, max } = versions;
  if (typeof min?.version !== "string" || typeof max?.version !== "string") return undefined;
  const order = compareLiterals(min.version, max.version, python);
  if (order === undefined) return undefined;
  const both = `versions.min ${JSON.stringify(min.version)} and versions.max ${JSON.stringify(max.version)}`;
  if (order > 0) return `${both}: min is above max, so the version window is empty and nothing is mirrored`;
  if (order === 0 && !(min.inclusive && max.inclusive)) {
    const edge = !min.inclusive && !max.inclusive ? "both edges are" : min.inclusive ? "max is" : "min is";
    return `${both} are equal and ${edge} exclusive, so the version window is empty and nothing is mirrored`;
  }
  return undefined;
}

function compareLiterals(a: string, b: string, python: boolean): number | undefined {
  if (python) return isPep440Version(a) && isPep440Version(b) ? Math.sign(comparePep440(a, b)) : undefined;
  const x = matchVersion(a);
  const y = matchVersion(b);
  return typeof x === "string" || typeof y === "string" ? undefined : Math.sign(compareVersions(x, y));
}
