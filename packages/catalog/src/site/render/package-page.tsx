/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";
import { installCommands } from "../model/install-commands.js";
import { osClass, osLabel } from "../model/os-label.js";
import type { AnnotatedValue, PackageView } from "../model/types.js";
import { useLink } from "./links.js";

export interface PackagePageProps {
  pkg: PackageView;
  /** Route of the package's index catalog page, for the breadcrumb. */
  indexRoute: string;
  /** Sanitised README HTML. */
  readmeHtml?: string;
  /** Route of the `superseded_by` package, when the catalog has it. */
  successorRoute?: string;
}

function Value({ value }: { value: AnnotatedValue }) {
  return value.href ? (
    <a href={value.href} rel="nofollow noopener">
      {value.text}
    </a>
  ) : (
    value.text
  );
}

function Banners({ pkg, successorRoute }: { pkg: PackageView; successorRoute: string | undefined }) {
  const link = useLink();
  const successor = pkg.supersededBy;
  return (
    <>
      {pkg.status === "deprecated" && (
        <div class="banner banner-deprecated" role="note">
          <strong>Deprecated.</strong> {pkg.deprecatedMessage ?? "This package is no longer maintained."}
          {successor && (
            <>
              {" "}
              Superseded by{" "}
              {successorRoute ? <a href={link(successorRoute)}>{successor}</a> : <code>{successor}</code>}.
            </>
          )}
        </div>
      )}
      {pkg.status === "yanked" && (
        <div class="banner banner-yanked" role="note">
          <strong>Yanked.</strong>{" "}
          {pkg.deprecatedMessage ?? "This package was withdrawn and should not be used."}
        </div>
      )}
    </>
  );
}

/** The commands that get the package, each one the shipped `pkg` CLI takes; the site script gives
 *  each a copy button. */
function Install({ pkg }: { pkg: PackageView }) {
  const commands = installCommands(pkg);
  return (
    <section class="install" aria-labelledby="install-h">
      <h2 id="install-h">Install</h2>
      {commands.length === 0 ? (
        <p>No version of this package can be fetched yet.</p>
      ) : (
        commands.map(({ lead, command }) => (
          <div key={command}>
            <p>{lead}</p>
            <pre class="command">
              <code>{command}</code>
            </pre>
          </div>
        ))
      )}
    </section>
  );
}

/** One `<dt>`/`<dd>` pair of the facts list. */
function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

function Facts({ pkg }: { pkg: PackageView }) {
  return (
    <dl class="facts">
      <Fact term="Latest version">{pkg.latest ?? "none"}</Fact>
      {pkg.license && (
        <Fact term="License">
          <Value value={pkg.license} />
        </Fact>
      )}
      {pkg.source && (
        <Fact term="Source">
          <Value value={pkg.source} />
        </Fact>
      )}
      {pkg.revision && (
        <Fact term="Revision">
          <code>
            <Value value={pkg.revision} />
          </code>
        </Fact>
      )}
      {pkg.upstreamUrl && (
        <Fact term="Upstream">
          <a href={pkg.upstreamUrl} rel="nofollow noopener">
            {pkg.upstreamUrl}
          </a>
        </Fact>
      )}
      <dt>Owners</dt>
      <dd class="owners">
        {pkg.owners.length === 0
          ? "none"
          : pkg.owners.map((owner, i) => (
              <span key={owner.login}>
                {i > 0 && ", "}
                <a href={owner.href} rel="nofollow noopener">
                  {owner.login}
                </a>
              </span>
            ))}
      </dd>
    </dl>
  );
}

/** The matrix's marks as character references: a page whose every character fits in one byte is kept
 *  by V8 as a one-byte string, which a worker flattens and writes out at half the cost of a two-byte
 *  one (a single "✓" as text made all 30 KB of a page two-byte). */
const yesMark = { __html: "&#x2713;" };
const noMark = { __html: "&#x2013;" };

function Platforms({ pkg }: { pkg: PackageView }) {
  const { arches, rows } = pkg.matrix;
  return (
    <section aria-labelledby="platforms-h">
      <h2 id="platforms-h">Platforms</h2>
      {rows.length === 0 ? (
        <p>No platform information for the latest version.</p>
      ) : (
        <div class="table-scroll">
          <table class="matrix">
            <caption>Platforms of version {pkg.latest}</caption>
            <thead>
              <tr>
                <th scope="col">OS and libc</th>
                {arches.map((arch) => (
                  <th scope="col" key={arch}>
                    {arch}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.label}>
                  <th scope="row">
                    <span class={`os ${osClass(row.os)}`}>{osLabel(row.os)}</span>
                    {row.libc !== undefined && <span class="libc"> {row.libc}</span>}
                  </th>
                  {row.arches.map((has, i) => (
                    <td key={arches[i]} class={has ? "yes" : "no"}>
                      {/* a mark to see, a word to hear: never colour alone */}
                      <span
                        class="mark"
                        aria-hidden="true"
                        dangerouslySetInnerHTML={has ? yesMark : noMark}
                      />
                      <span class="visually-hidden">{has ? "yes" : "no"}</span>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Tags({ pkg }: { pkg: PackageView }) {
  return (
    <section aria-labelledby="tags-h">
      <h2 id="tags-h">Tags</h2>
      <div class="table-scroll">
        <table class="tags">
          <thead>
            <tr>
              <th scope="col">Tag</th>
              <th scope="col">Aliases</th>
              <th scope="col">Observed</th>
            </tr>
          </thead>
          <tbody>
            {pkg.tags.map((group) => (
              <tr key={group.content} class={group.yanked ? "yanked" : undefined}>
                <th scope="row">
                  <code>{group.tag}</code>
                  {group.yanked && (
                    <span class="status status-yanked" title={group.yankedReason}>
                      yanked
                    </span>
                  )}
                </th>
                <td>
                  {group.aliases.map((alias, i) => (
                    <span key={alias}>
                      {i > 0 && " "}
                      <code>{alias}</code>
                    </span>
                  ))}
                </td>
                <td>
                  <time dateTime={group.observed}>{group.observed.slice(0, 10)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function PackagePage({ pkg, indexRoute, readmeHtml, successorRoute }: PackagePageProps) {
  const link = useLink();
  return (
    <article class="package">
      <nav class="breadcrumb" aria-label="Breadcrumb">
        <a href={link(indexRoute)}>{pkg.indexLabel}</a> / <span aria-current="page">{pkg.path}</span>
      </nav>
      <header class="package-head">
        {pkg.logoHref && (
          <img
            class="package-logo"
            src={link(pkg.logoHref)}
            alt={`${pkg.title} logo`}
            width={64}
            height={64}
          />
        )}
        <div>
          <h1>{pkg.title}</h1>
          <p class="package-name">
            <code>{pkg.name}</code>
            {pkg.status !== "active" && <span class={`status status-${pkg.status}`}>{pkg.status}</span>}
          </p>
          {pkg.description && <p class="package-desc">{pkg.description}</p>}
          {pkg.keywords.length > 0 && (
            <ul class="keywords" aria-label="Keywords">
              {pkg.keywords.map((k) => (
                <li key={k}>{k}</li>
              ))}
            </ul>
          )}
        </div>
      </header>
      <Banners pkg={pkg} successorRoute={successorRoute} />
      {pkg.disclaimer && <p class="disclaimer">{pkg.disclaimer}</p>}
      <div class="package-grid">
        <div class="package-main">
          <Install pkg={pkg} />
          <Platforms pkg={pkg} />
          <Tags pkg={pkg} />
          {readmeHtml !== undefined && (
            <section aria-labelledby="readme-h">
              <h2 id="readme-h">README</h2>
              <div class="readme" dangerouslySetInnerHTML={{ __html: readmeHtml }} />
            </section>
          )}
        </div>
        <aside class="package-side" aria-label="Package facts">
          <Facts pkg={pkg} />
        </aside>
      </div>
    </article>
  );
}
