import { isValidRegistryHost, isValidRepository } from "@pkg/oci";
import type { Field } from "./field.js";

/** `target`: where packages are pushed. `repository` keeps its `/` segments as written. */
export interface TargetSpec {
  /** Registry host, with a port when not the default: `ghcr.io`, `localhost:5000`. */
  registry: string;
  repository: string;
}

export function readTarget(field: Field): TargetSpec | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["registry", "repository"]);
  const registryField = map.require("registry");
  const repositoryField = map.require("repository");
  const registry = registryField && readRegistry(registryField);
  const repository = repositoryField && readRepository(repositoryField);
  return registry !== undefined && repository !== undefined ? { registry, repository } : undefined;
}

function readRegistry(field: Field): string | undefined {
  const text = field.string({ nonEmpty: true });
  if (text === undefined) return undefined;
  if (text.includes("://"))
    return field.fail("give the registry host alone, without a URL scheme (ghcr.io, not https://ghcr.io)");
  if (text.includes("/"))
    return field.fail("give the registry host alone; the path belongs in target.repository");
  if (!isValidRegistryHost(text)) return field.fail(`${JSON.stringify(text)} is not a registry host[:port]`);
  return text;
}

function readRepository(field: Field): string | undefined {
  const text = field.string({ nonEmpty: true });
  if (text === undefined) return undefined;
  if (!isValidRepository(text)) {
    return field.fail(
      `${JSON.stringify(text)} is not a repository path: "/"-separated segments of lowercase letters and digits, joined inside a segment by ".", "_", "__" or "-"`,
    );
  }
  return text;
}
