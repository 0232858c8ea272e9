import type { PackageView } from "./types.js";

/**
 * Whether the shipped `pkg` CLI has `pkg exec`. The catalog does not depend on the package tool (its
 * users install it alone), so a test holds this in step with the `pkg` program's commands.
 */
export const pkgHasExec = true;

/** One command of a package page's install block, with the sentence that introduces it. */
export interface InstallCommand {
  lead: string;
  command: string;
}

/** A host name with an optional port. */
const hostPattern = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/;

/** A registry host as `pkg` reads one: a dotted name, a name with a port, or `localhost`. */
function isRegistryHost(host: string): boolean {
  return hostPattern.test(host) && (host.includes(".") || host.includes(":") || host === "localhost");
}

/** One repository path component of the OCI distribution spec. */
const componentPattern = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
/** An OCI tag. */
const tagPattern = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
/** `registry/repository` of an `oci://` repository URL, when it is a well-formed one. */
export function registryRepository(repository: string): string | undefined {
  const match = /^oci:\/\/([^/]+)\/(.+)$/.exec(repository);
  if (!match) return undefined;
  const [, host = "", path = ""] = match;
  if (!isRegistryHost(host) || !path.split("/").every((c) => componentPattern.test(c))) return undefined;
  return `${host}/${path}`;
}

/**
 * The commands the install block shows, each one the shipped `pkg` CLI takes: `pkg exec
 * REGISTRY/REPO:TAG` (install the latest version from the package's repository and run its
 * entrypoint) and `pkg package pull` of it into a directory named after it. Only a well-formed
 * repository and tag are shown, so an index's odd text never becomes a shell command; none without
 * a latest version.
 */
export function installCommands(pkg: PackageView, hasExec: boolean = pkgHasExec): InstallCommand[] {
  const version = pkg.latest;
  if (version === undefined || !tagPattern.test(version)) return [];
  const repository = registryRepository(pkg.repository);
  if (repository === undefined) return [];
  const commands: InstallCommand[] = [];
  if (hasExec) commands.push({ lead: "Run it with pkg:", command: `pkg exec ${repository}:${version}` });
  const dir = repository.slice(repository.lastIndexOf("/") + 1);
  commands.push({
    lead: `Pull version ${version} for this machine into ./${dir} with pkg:`,
    command: `pkg package pull ${repository}:${version} -o ${dir}`,
  });
  return commands;
}
