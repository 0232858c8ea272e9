/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { PackageView } from "../model/types.js";
import { useLink } from "./links.js";

/** One compact entry of the catalog list; the data attributes are what the client filters on. */
export function PackageCard({ pkg }: { pkg: PackageView }) {
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
        <span class="card-logo" />
      )}
      <h3 class="card-title">
        <a href={link(pkg.route)}>{pkg.title}</a>
      </h3>
      <span class="card-name">{pkg.name}</span>
      <p class="card-desc">{pkg.description}</p>
      <p class="card-meta">
        <span class="card-version">{pkg.latest ?? ""}</span>
        <span class="card-os">{pkg.oses.join(" · ")}</span>
        {pkg.status !== "active" && <span class={`status status-${pkg.status}`}>{pkg.status}</span>}
      </p>
    </li>
  );
}
