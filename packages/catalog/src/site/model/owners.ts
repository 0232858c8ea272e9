import type { Owner } from "@pkg/index";
import type { OwnerLink } from "./types.js";

export const defaultOwnerUrl = "https://github.com/{login}";

/** The owner-profile template for a source: its own, else the top-level one, else the default. */
export function ownerTemplate(sourceOwnerUrl: string | undefined, topOwnerUrl: string | undefined): string {
  return sourceOwnerUrl ?? topOwnerUrl ?? defaultOwnerUrl;
}

/** Fills `{login}` with the URL-encoded login. Logins that are not non-empty strings are skipped. */
export function ownerLinks(owners: readonly Owner[] | undefined, template: string): OwnerLink[] {
  if (!Array.isArray(owners)) return [];
  return owners
    .filter((owner) => typeof owner?.github === "string" && owner.github.length > 0)
    .map((owner) => ({
      login: owner.github,
      href: template.replace("{login}", encodeURIComponent(owner.github)),
    }));
}
