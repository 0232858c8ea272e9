import {
  openLayout,
  openRegistry,
  parseReference,
  parseRepositoryReference,
  type RepositoryReference,
  type Target,
} from "@pkg/oci";

/**
 * The target a command's reference names, and the reference. `--layout DIR` turns every reference
 * into a repository of that OCI image layout root, so the registry host may be left out
 * (`hello:1.0`, `tools/hello@sha256:...`); one that is given is ignored. Without it the reference
 * names a registry: `REGISTRY/REPOSITORY[:TAG|@DIGEST]`. A malformed reference is exit 64.
 */
export function openReference(
  text: string,
  layoutRoot: string | undefined,
): { target: Target; reference: RepositoryReference } {
  if (layoutRoot !== undefined) {
    const reference = parseRepositoryReference(text);
    return { target: openLayout(layoutRoot, reference.repository), reference };
  }
  const reference = parseReference(text);
  return { target: openRegistry(reference), reference };
}

export const layoutOptionHelp =
  "write to (read from) an OCI image layout under DIR instead of the registry: one layout per repository, at DIR/<repository>; references may then leave out the registry (REPOSITORY[:TAG])";
