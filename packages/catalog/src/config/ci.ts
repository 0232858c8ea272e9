import { ConfigError } from "./errors.js";
import { expectObject, optionalBoolean, optionalString, requiredString } from "./json-value.js";
import { childPath } from "./key-path.js";
import type { CiConfig } from "./types.js";

const FORGES = ["github", "gitlab"] as const;
const PACKAGE_MANAGERS = ["npm", "bun"] as const;

function oneOf<T extends string>(value: string, allowed: readonly T[], path: string): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) {
    throw new ConfigError(
      "INVALID_TYPE",
      `${path} must be ${allowed.map((a) => JSON.stringify(a)).join(" or ")}, not ${JSON.stringify(value)}`,
      path,
    );
  }
  return found;
}

/** `ci` is open: unknown keys pass through untouched; `packageManager` is not defaulted here. */
export function parseCi(value: unknown, path: string): CiConfig {
  const ci = expectObject(value, path);
  const forge = oneOf(requiredString(ci, "forge", path), FORGES, childPath(path, "forge"));
  const manager = optionalString(ci, "packageManager", path);
  const verifyCi = optionalBoolean(ci, "verifyCi", path);
  // spreading copies own keys as data properties, so even a "__proto__" key stays a plain key
  const parsed: CiConfig = { ...ci, forge };
  if (manager !== undefined) {
    parsed.packageManager = oneOf(manager, PACKAGE_MANAGERS, childPath(path, "packageManager"));
  }
  if (verifyCi !== undefined) parsed.verifyCi = verifyCi;
  return parsed;
}

/** The package manager the CI files use: the configured one, else npm (the loader leaves it unset). */
export function ciPackageManager(ci: CiConfig): "npm" | "bun" {
  return ci.packageManager ?? "npm";
}
