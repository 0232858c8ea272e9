/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { CardView } from "../model/card-view.js";
import { osClass, osLabel } from "../model/os-label.js";
import { useLink } from "./links.js";

/** OS badges: the name people use (`macOS` for `darwin`) as text, a colour dot beside it. */
export function OsBadges({ oses }: { oses: string[] }) {
  if (oses.length === 0) return null;
  return (
    <ul class="os-list card-os" aria-label="Platforms">
      {oses.map((os) => (
        <li class={`os ${osClass(os)}`} key={os}>
          {osLabel(os)}
        </li>
      ))}
    </ul>
  );
}

/** One compact entry of the catalog list; the data attributes are what the client filters on. */
export function PackageCard({ pkg }: { pkg: CardView }) {
  const link = useLink();
  return (
    <li
      class="card"
      data-name={pkg.name}
      data-kw={pkg.keywords.join(" ")}
      data-os={pkg.oses.join(" ")}
      data-status={pkg.status}
      data-updated={pkg.latestObserved ?? ""}
    >
      {pkg.logoHref ? (
        <img class="card-logo" src={link(pkg.logoHref)} alt="" width={32} height={32} loading="lazy" />
      ) : (
        // no logo: the title's first letter on the same tile
        <span class="card-logo" aria-hidden="true">
          {Array.from(pkg.title)[0] ?? ""}
        </span>
      )}
      <h3 class="card-title">
        <a href={link(pkg.route)}>{pkg.title}</a>
      </h3>
      <span class="card-name">{pkg.name}</span>
      <p class="card-desc">{pkg.description}</p>
      <div class="card-meta">
        {pkg.latest && <span class="card-version">{pkg.latest}</span>}
        <OsBadges oses={pkg.oses} />
        {pkg.status !== "active" && <span class={`status status-${pkg.status}`}>{pkg.status}</span>}
      </div>
    </li>
  );
}
