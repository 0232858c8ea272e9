/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { allRoute } from "../model/routes.js";
import { useLink } from "./links.js";

export function NotFoundPage() {
  const link = useLink();
  return (
    <div class="not-found">
      <h1>Page not found</h1>
      <p>
        Nothing is published at this address. Browse <a href={link("/")}>the catalog</a> or{" "}
        <a href={link(allRoute)}>every package</a>.
      </p>
    </div>
  );
}

export function DocsPage({ html }: { html: string }) {
  return <article class="docs" dangerouslySetInnerHTML={{ __html: html }} />;
}
