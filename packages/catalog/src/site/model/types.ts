import type { PackageStatus } from "@pkg/index";

/** One row of a package's tag table: every tag pointing at one image index. */
export interface TagGroup {
  /** The tag shown first: the most specific version among the group. */
  tag: string;
  /** The other tags sharing the same content digest. */
  aliases: string[];
  content: string;
  /** Latest `observed` of the group's tags. */
  observed: string;
  yanked: boolean;
  yankedReason?: string;
}

/** One platform of the latest image index. `libc` comes from `os.features` (`libc.glibc` → `glibc`). */
export interface PlatformEntry {
  os: string;
  arch: string;
  libc?: string;
}

/** The platform matrix: one row per OS (and libc), one column per architecture. */
export interface PlatformMatrix {
  arches: string[];
  rows: { os: string; libc?: string; label: string; arches: boolean[] }[];
}

export interface OwnerLink {
  login: string;
  href: string;
}

/** An annotation value, with an href only when it is an https URL. */
export interface AnnotatedValue {
  text: string;
  href?: string;
}

/** Everything a package page and card show, derived purely from the index data. */
export interface PackageView {
  /** `<label>/<ns>/<pkg>` */
  name: string;
  /** `<ns>/<pkg>` */
  path: string;
  indexLabel: string;
  /** Site route, with leading and trailing slash. */
  route: string;
  title: string;
  description: string;
  keywords: string[];
  status: PackageStatus;
  deprecatedMessage?: string;
  supersededBy?: string;
  repository: string;
  latest?: string;
  latestObserved?: string;
  tags: TagGroup[];
  platforms: PlatformEntry[];
  matrix: PlatformMatrix;
  /** Distinct OS names of the latest version, sorted. */
  oses: string[];
  owners: OwnerLink[];
  license?: AnnotatedValue;
  source?: AnnotatedValue;
  revision?: AnnotatedValue;
  upstreamUrl?: string;
  disclaimer?: string;
  /** Site href of the logo file (the mirrored index object), when the index has one. */
  logoHref?: string;
}

/** The fields of a view the site's lists read (cards, tabs, facets, search, `/catalog.json`,
 *  successor routes); the rest only its own page does. */
export const summaryKeys = [
  "name",
  "path",
  "indexLabel",
  "route",
  "title",
  "description",
  "keywords",
  "status",
  "supersededBy",
  "latest",
  "latestObserved",
  "platforms",
  "oses",
  "logoHref",
] as const satisfies readonly (keyof PackageView)[];

/** What the site's lists show of a package: a build onto its previous output holds this of every
 *  package, and the whole view only of those whose page it renders. */
export type PackageSummary = Pick<PackageView, (typeof summaryKeys)[number]>;

/** A count of packages per facet value, most frequent first. */
export interface Facet {
  value: string;
  count: number;
}

/** One index as the catalog view shows it (its packages as the build holds them: summaries, or
 *  whole views where every package was viewed). */
export interface IndexView<P extends PackageSummary = PackageSummary> {
  label: string;
  root: boolean;
  isDefault: boolean;
  excludeFromAll: boolean;
  /** Route of the index's catalog page: `/index/<label>/`. */
  route: string;
  packages: P[];
}

/** One tab of the catalog view: an index, or `all`. */
export interface CatalogTab<P extends PackageSummary = PackageSummary> {
  /** The index label, or `all`. */
  id: string;
  label: string;
  route: string;
  isDefault: boolean;
  packages: P[];
  oses: Facet[];
  keywords: Facet[];
}

export interface SiteModel<P extends PackageSummary = PackageSummary> {
  indexes: IndexView<P>[];
  /** `all` first, then one tab per index in source order. */
  tabs: CatalogTab<P>[];
  /** The tab `/` opens on: the default index, else `all`. */
  defaultTab: CatalogTab<P>;
}
