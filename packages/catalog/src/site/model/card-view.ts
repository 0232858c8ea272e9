import type { PackageStatus } from "@pkg/index";

/**
 * What a package card shows: the same component renders it on the server (from a PackageView) and
 * in the browser (from a search-index entry), so both lists look alike. Imports types only, so the
 * browser bundle can read it.
 */
export interface CardView {
  /** `<label>/<ns>/<pkg>` */
  name: string;
  title: string;
  description: string;
  /** Site route of the package page. */
  route: string;
  keywords: string[];
  /** Distinct OS names of the latest version, sorted. */
  oses: string[];
  status: PackageStatus;
  latest?: string;
  latestObserved?: string;
  /** Site path of the logo, when the index has one. */
  logoHref?: string;
}
