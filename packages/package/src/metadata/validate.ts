import { Checker, child, type JsonObject } from "./checker.js";
import { dependencyName, readDependencies } from "./dependencies.js";
import { ENV_VISIBILITIES, type Entrypoint, type EnvEntry, type Metadata } from "./model.js";
import { checkPlaceholders } from "./templates.js";

const envKeyPattern = { test: /^[A-Za-z_][A-Za-z0-9_]*$/, describe: "an environment variable name" };
const fileNamePattern = { test: /^(?!\.\.?$)[^/\\\0]+$/, describe: "a file name, not a path" };
const entrypointNamePattern = {
  test: /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
  describe: "letters, digits, ., _ and - (at most 64, starting with a letter or digit)",
};

/**
 * Validates a parsed metadata document (or a model built in code) and returns the model, with
 * `$schema` dropped. Throws exit 65 with one line naming `source` and the key path.
 */
export function validateMetadata(value: unknown, source: string): Metadata {
  const check = new Checker(source);
  const root = check.object(value, "");
  check.onlyKeys(root, "", [
    "$schema",
    "type",
    "version",
    "strip_components",
    "env",
    "binaries",
    "entrypoints",
    "dependencies",
  ]);
  if (root.type !== "bundle") check.fail("type", 'must be "bundle"');
  if (root.version !== 1) check.fail("version", "must be 1");
  const metadata: Metadata = { type: "bundle", version: 1 };

  if (root.strip_components !== undefined) {
    const strip = root.strip_components;
    if (typeof strip !== "number" || !Number.isSafeInteger(strip) || strip < 0) {
      return check.fail("strip_components", "must be a whole number, 0 or more");
    }
    metadata.strip_components = strip;
  }
  const dependencies =
    root.dependencies === undefined ? [] : readDependencies(root.dependencies, "dependencies", check);
  const names = new Set(dependencies.map(dependencyName));
  if (root.env !== undefined) metadata.env = readEnv(root.env, check, names);
  if (root.binaries !== undefined) {
    metadata.binaries = check.strings(root.binaries, "binaries", { pattern: fileNamePattern });
  }
  if (root.entrypoints !== undefined) metadata.entrypoints = readEntrypoints(root.entrypoints, check, names);
  if (root.dependencies !== undefined) metadata.dependencies = dependencies;
  return metadata;
}

function readEnv(value: unknown, check: Checker, dependencies: ReadonlySet<string>): EnvEntry[] {
  const entries = check.array(value, "env").map((item, i) => {
    const path = `env[${i}]`;
    const object: JsonObject = check.object(item, path);
    check.onlyKeys(object, path, ["key", "type", "value", "required", "visibility"]);
    const entry: EnvEntry = {
      key: check.string(object.key, child(path, "key"), envKeyPattern),
      type: check.oneOf(object.type, child(path, "type"), ["path", "constant"] as const),
      value: check.string(object.value, child(path, "value")),
    };
    checkPlaceholders(entry.value, child(path, "value"), dependencies, check);
    if (object.required !== undefined) {
      if (entry.type !== "path") check.fail(child(path, "required"), "applies to path entries only");
      entry.required = check.boolean(object.required, child(path, "required"));
    }
    if (object.visibility !== undefined) {
      entry.visibility = check.oneOf(object.visibility, child(path, "visibility"), ENV_VISIBILITIES);
    }
    return entry;
  });
  entries.forEach((entry, i) => {
    const clash = entries.findIndex(
      (other) => other.key === entry.key && (other.type === "constant" || entry.type === "constant"),
    );
    if (clash >= 0 && clash < i) {
      check.fail(
        `env[${i}].key`,
        `sets ${entry.key} again: a constant variable is declared once, and never also as a path`,
      );
    }
  });
  return entries;
}

function readEntrypoints(value: unknown, check: Checker, dependencies: ReadonlySet<string>): Entrypoint[] {
  const entrypoints = check.array(value, "entrypoints").map((item, i) => {
    const path = `entrypoints[${i}]`;
    const object = check.object(item, path);
    check.onlyKeys(object, path, ["name", "target", "args"]);
    const entrypoint: Entrypoint = {
      name: check.string(object.name, child(path, "name"), entrypointNamePattern),
      target: check.string(object.target, child(path, "target")),
    };
    checkPlaceholders(entrypoint.target, child(path, "target"), dependencies, check);
    if (object.args !== undefined) {
      const args = check.strings(object.args, child(path, "args"), { allowEmpty: true, distinct: false });
      args.forEach((arg, j) => {
        checkPlaceholders(arg, `${child(path, "args")}[${j}]`, dependencies, check);
      });
      entrypoint.args = args;
    }
    return entrypoint;
  });
  entrypoints.forEach((entrypoint, i) => {
    if (entrypoints.findIndex((other) => other.name === entrypoint.name) < i) {
      check.fail(`entrypoints[${i}].name`, `repeats "${entrypoint.name}"`);
    }
  });
  return entrypoints;
}
