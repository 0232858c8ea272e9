import {
  expectArray,
  expectObject,
  missingKey,
  optionalValue,
  rejectUnknownKeys,
  requiredString,
} from "./json-value.js";
import { childPath, itemPath } from "./key-path.js";
import type { NavEntry } from "./types.js";
import { checkDocsNavLink, checkNavLink } from "./urls.js";

const NAV_KEYS = ["text", "link"] as const;
const FOOTER_KEYS = ["links"] as const;

type LinkRule = (raw: string, path: string) => string;

function parseEntries(value: unknown, path: string, rule: LinkRule): NavEntry[] {
  return expectArray(value, path).map((item, index) => {
    const entryPath = itemPath(path, index);
    const entry = expectObject(item, entryPath);
    rejectUnknownKeys(entry, NAV_KEYS, entryPath);
    const text = requiredString(entry, "text", entryPath);
    const link = rule(requiredString(entry, "link", entryPath), childPath(entryPath, "link"));
    return { text, link };
  });
}

/** `nav[]`: absolute http(s) links or single-slash site paths. */
export function parseNav(value: unknown, path: string): NavEntry[] {
  return parseEntries(value, path, checkNavLink);
}

/** `docsNav[]`: links at or below `/docs/`. */
export function parseDocsNav(value: unknown, path: string): NavEntry[] {
  return parseEntries(value, path, checkDocsNavLink);
}

/** `footer`: a closed object whose required `links` follow the `nav[]` rules. */
export function parseFooter(value: unknown, path: string): { links: NavEntry[] } {
  const footer = expectObject(value, path);
  rejectUnknownKeys(footer, FOOTER_KEYS, path);
  const linksPath = childPath(path, "links");
  const links = optionalValue(footer, "links");
  if (links === undefined) throw missingKey(linksPath, "an array of {text, link}");
  return { links: parseNav(links, linksPath) };
}
