import { isPkgError } from "@pkg/common";
import { parseReference } from "@pkg/oci/documents";
import { type Checker, child } from "./checker.js";
import { DEPENDENCY_VISIBILITIES, type Dependency } from "./model.js";

const namePattern = {
  test: /^[a-z0-9][a-z0-9_-]{0,63}$/,
  describe: "lowercase letters, digits, _ and - (at most 64)",
};

/** Reads `dependencies`: every identifier has a registry and a digest, names and repositories are unique. */
export function readDependencies(value: unknown, path: string, check: Checker): Dependency[] {
  const dependencies = check
    .array(value, path)
    .map((item, i) => readDependency(item, `${path}[${i}]`, check));
  const names = new Set<string>();
  const repositories = new Set<string>();
  dependencies.forEach((dependency, i) => {
    const repository = repositoryOf(dependency.identifier);
    if (repositories.has(repository))
      check.fail(`${path}[${i}].identifier`, `names ${repository} a second time`);
    repositories.add(repository);
    const name = dependencyName(dependency);
    if (names.has(name)) {
      check.fail(
        `${path}[${i}]`,
        `is named "${name}" like an earlier dependency; give one of them a distinct name`,
      );
    }
    names.add(name);
  });
  return dependencies;
}

function readDependency(value: unknown, path: string, check: Checker): Dependency {
  const object = check.object(value, path);
  check.onlyKeys(object, path, ["identifier", "name", "visibility"]);
  const identifier = check.string(object.identifier, child(path, "identifier"));
  let reference: ReturnType<typeof parseReference>;
  try {
    reference = parseReference(identifier);
  } catch (error) {
    if (!isPkgError(error)) throw error;
    return check.fail(
      child(path, "identifier"),
      `is not <registry>/<repository>[:<tag>]@sha256:<hex>: ${error.message}`,
    );
  }
  if (reference.digest === undefined) {
    check.fail(
      child(path, "identifier"),
      `${JSON.stringify(identifier)} is not pinned by digest (add @sha256:<hex>)`,
    );
  }
  const dependency: Dependency = { identifier };
  if (object.name !== undefined)
    dependency.name = check.string(object.name, child(path, "name"), namePattern);
  if (object.visibility !== undefined) {
    dependency.visibility = check.oneOf(
      object.visibility,
      child(path, "visibility"),
      DEPENDENCY_VISIBILITIES,
    );
  }
  return dependency;
}

/** How placeholders name a dependency: its `name`, else the last component of its repository. */
export function dependencyName(dependency: Dependency): string {
  if (dependency.name !== undefined) return dependency.name;
  const repository = repositoryOf(dependency.identifier);
  return repository.slice(repository.lastIndexOf("/") + 1);
}

function repositoryOf(identifier: string): string {
  const reference = parseReference(identifier);
  return `${reference.registry}/${reference.repository}`;
}
