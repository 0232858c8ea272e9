import type { LoadedPackage } from "../../sources/types.js";
import { httpsHref, imageMeta } from "./annotations.js";
import { ownerLinks } from "./owners.js";
import { platformMatrix, platformsOf } from "./platforms.js";
import { groupTags, latestGroup } from "./tags.js";
import type { PackageView } from "./types.js";

export interface PackageContext {
  label: string;
  route: string;
  ownerTemplate: string;
  /** Index-relative paths of the files the site mirrors, to link the logo only when it is served. */
  hasFile: (indexPath: string) => boolean;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function logoHref(pkg: LoadedPackage, context: PackageContext): string | undefined {
  if (!pkg.logo) return undefined;
  const hex = pkg.logo.digest.replace(/^sha256:/, "");
  if (!/^[0-9a-f]{64}$/.test(hex)) return undefined;
  const file = `p/${pkg.path}/o/sha256/${hex}.${pkg.logo.ext}`;
  return context.hasFile(file) ? `/index/${context.label}/${file}` : undefined;
}

/** Everything the pages show about one package, from its verified root and image indexes. */
export function packageView(pkg: LoadedPackage, context: PackageContext): PackageView {
  const root = pkg.root;
  const tags = root.tags && typeof root.tags === "object" ? root.tags : {};
  const groups = groupTags(tags);
  const latest = latestGroup(groups, tags);
  const latestIndex = latest ? pkg.imageIndexes.get(latest.content) : undefined;
  const platforms = platformsOf(latestIndex);
  const desc = root.desc;
  const keywords = Array.isArray(desc?.keywords)
    ? [...new Set(desc.keywords.filter((k): k is string => typeof k === "string" && k.length > 0))]
    : [];
  const view: PackageView = {
    name: pkg.name,
    path: pkg.path,
    indexLabel: context.label,
    route: context.route,
    title: text(desc?.title) ?? pkg.path.split("/").at(-1) ?? pkg.path,
    description: text(desc?.description) ?? "",
    keywords,
    status: root.status === "deprecated" || root.status === "yanked" ? root.status : "active",
    repository: text(root.repository) ?? "",
    tags: groups,
    platforms,
    matrix: platformMatrix(platforms),
    oses: [...new Set(platforms.map((p) => p.os))].sort(),
    owners: ownerLinks(root.owners, context.ownerTemplate),
    ...imageMeta(latestIndex),
  };
  if (latest) {
    view.latest = latest.tag;
    view.latestObserved = latest.observed;
  }
  const deprecatedMessage = text(root.deprecated_message);
  if (deprecatedMessage) view.deprecatedMessage = deprecatedMessage;
  const supersededBy = text(root.superseded_by);
  if (supersededBy) view.supersededBy = supersededBy;
  const upstreamUrl = httpsHref(root.upstream?.repository_url);
  if (upstreamUrl) view.upstreamUrl = upstreamUrl;
  const disclaimer = text(root.upstream?.disclaimer);
  if (disclaimer) view.disclaimer = disclaimer;
  const logo = logoHref(pkg, context);
  if (logo) view.logoHref = logo;
  return view;
}
