/**
 * What the command palette (src/client) reads of a package in `/catalog.json`. It imports nothing,
 * so the browser code's type check can read it without the rest of the model.
 */
export interface CatalogEntry {
  name: string;
  route: string;
  index: string;
  title: string;
  description: string;
  keywords: string[];
  latest: string | null;
}
