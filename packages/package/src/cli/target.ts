import { openLayout, openRegistry, type Reference, type Target } from "@pkg/oci";

/** `--layout DIR` turns every reference into a repository of that OCI image layout root. */
export function openTarget(reference: Reference, layoutRoot: string | undefined): Target {
  return layoutRoot === undefined ? openRegistry(reference) : openLayout(layoutRoot, reference.repository);
}

export const layoutOptionHelp =
  "write to (read from) an OCI image layout under DIR instead of the registry: one layout per repository, at DIR/<repository>";
