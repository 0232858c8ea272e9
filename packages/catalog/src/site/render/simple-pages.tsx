/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { allRoute } from "../model/routes.js";

export function NotFoundPage() {
  return (
    <div class="not-found">
      <h1>Page not found</h1>
      <p>
        Nothing is published at this address. Browse <a href="/">the catalog</a> or{" "}
        <a href={allRoute}>every package</a>.
      </p>
    </div>
  );
}

export function DocsPage({ html }: { html: string }) {
  return <article class="docs" dangerouslySetInnerHTML={{ __html: html }} />;
}
