/**
 * The catalog fields of a description (`__pkg.desc`): its manifest's annotations when it carries
 * them, else what its README says. Pure.
 */

/** Manifest annotations a description may carry; any one given wins over the README. */
export const DescriptionAnnotation = {
  Title: "org.opencontainers.image.title",
  Description: "org.opencontainers.image.description",
  /** Comma-separated keywords. */
  Keywords: "vnd.pkg.keywords",
} as const;

/** Longest `description` taken from a README's first paragraph. */
export const SUMMARY_MAX = 300;

export interface DescriptionFields {
  title: string;
  description: string;
  keywords: string[];
}

const FENCE = /^\s{0,3}(```|~~~)/;
const ATX_H1 = /^\s{0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_H1 = /^\s{0,3}=+\s*$/;
/** Blocks that are not a prose paragraph: headings, HTML, images and badges, lists, quotes, tables, rules. */
const NOT_PROSE = /^\s{0,3}(#|<|!\[|\[!\[|[-*+][ \t]|\d+[.)][ \t]|>|\||(?:[-*_][ \t]*){3,}$)/;

/** The README's blocks (runs of non-blank lines), code fences left out. */
function blocksOf(readme: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] = [];
  let fenced = false;
  const flush = () => {
    if (current.length > 0) blocks.push(current);
    current = [];
  };
  for (const line of readme.replace(/\r\n?/g, "\n").split("\n")) {
    if (FENCE.test(line)) {
      flush();
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (line.trim() === "") flush();
    else current.push(line);
  }
  flush();
  return blocks;
}

/** Markdown inline syntax reduced to its text: images dropped, links to their text, code and
 *  strong emphasis marks removed, whitespace collapsed. */
function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, "$1")
    .replace(/`+/g, "")
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/\s+/g, " ")
    .trim();
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}\u2026`;
}

/** The README's first level-one heading (`# Title` or `Title` over `===`). */
export function readmeTitle(readme: string): string | undefined {
  for (const block of blocksOf(readme)) {
    const atx = ATX_H1.exec(block[0] as string);
    if (atx) return plainText(atx[1] ?? "") || undefined;
    if (block.length >= 2 && SETEXT_H1.test(block[1] as string))
      return plainText(block[0] as string) || undefined;
  }
  return undefined;
}

/** The README's first prose paragraph as plain text, at most SUMMARY_MAX characters. */
export function readmeSummary(readme: string): string | undefined {
  for (const block of blocksOf(readme)) {
    if (NOT_PROSE.test(block[0] as string)) continue;
    if (block.length >= 2 && SETEXT_H1.test(block[1] as string)) continue;
    const text = plainText(block.join(" "));
    if (text !== "") return truncate(text, SUMMARY_MAX);
  }
  return undefined;
}

function annotation(annotations: Record<string, string> | undefined, key: string): string | undefined {
  const value = annotations?.[key]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Title, description and keywords: each from the description manifest's annotation when present;
 * else the title is the README's first heading (else `fallbackTitle`, the package's own name), the
 * description its first paragraph (else empty), and there are no keywords.
 */
export function descriptionFields(
  annotations: Record<string, string> | undefined,
  readme: string | undefined,
  fallbackTitle: string,
): DescriptionFields {
  const title =
    annotation(annotations, DescriptionAnnotation.Title) ?? (readme && readmeTitle(readme)) ?? fallbackTitle;
  const description =
    annotation(annotations, DescriptionAnnotation.Description) ?? (readme && readmeSummary(readme)) ?? "";
  const keywords = [
    ...new Set(
      (annotation(annotations, DescriptionAnnotation.Keywords) ?? "")
        .split(",")
        .map((k) => k.trim())
        .filter((k) => k !== ""),
    ),
  ];
  return { title, description, keywords };
}
