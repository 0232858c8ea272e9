/**
 * The fields of a wheel's core metadata (`<dist-info>/METADATA`, an email-header document) that
 * describe the project, and the catalog README made of them when a spec has no CATALOG.md.
 */
export interface ProjectDescription {
  summary?: string;
  keywords: string[];
  license?: string;
}

/** Header name (lowercased) → values in order; the body after the first blank line is left out. */
function headers(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let last: string[] | undefined;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (line === "") break;
    if (/^[ \t]/.test(line) && last !== undefined) {
      last[last.length - 1] += `\n${line.trim()}`;
      continue;
    }
    const at = line.indexOf(":");
    if (at <= 0) continue;
    const name = line.slice(0, at).trim().toLowerCase();
    const values = out.get(name) ?? [];
    values.push(line.slice(at + 1).trim());
    out.set(name, values);
    last = values;
  }
  return out;
}

/** A license as one short line: the SPDX expression, else a one-line License field, else the
 *  classifier's last segment. A License field holding a whole license text is not a name. */
function licenseOf(fields: Map<string, string[]>): string | undefined {
  const expression = fields.get("license-expression")?.[0];
  if (expression) return expression;
  const field = fields.get("license")?.[0];
  if (field && !field.includes("\n") && field.length <= 100 && field.toUpperCase() !== "UNKNOWN")
    return field;
  const classifier = (fields.get("classifier") ?? []).find((c) => c.startsWith("License ::"));
  return classifier?.split("::").at(-1)?.trim() || undefined;
}

export function parseProjectDescription(metadata: string): ProjectDescription {
  const fields = headers(metadata);
  const summary = fields.get("summary")?.[0]?.replace(/\s+/g, " ").trim();
  const keywordText = (fields.get("keywords") ?? []).join(",");
  const keywords = keywordText
    .split(keywordText.includes(",") ? "," : /\s+/)
    .map((k) => k.trim())
    .filter((k) => k !== "");
  const license = licenseOf(fields);
  return {
    ...(summary && summary.toUpperCase() !== "UNKNOWN" ? { summary } : {}),
    keywords: [...new Set(keywords)],
    ...(license === undefined ? {} : { license }),
  };
}

/** Text shown as it is in Markdown: the characters that would start markup escaped. */
function plainText(text: string): string {
  return text
    .replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`)
    .replace(/^([-+=])(\s)/, "\\$1$2")
    .replace(/^(\d+)([.)])(\s)/, "$1\\$2$3");
}

/**
 * The README: the summary as the lead paragraph, then `Keywords:` and `License:` lines; undefined
 * when the metadata says none of them.
 */
export function descriptionMarkdown(description: ProjectDescription): string | undefined {
  const parts: string[] = [];
  if (description.summary) parts.push(plainText(description.summary));
  if (description.keywords.length > 0) parts.push(`Keywords: ${plainText(description.keywords.join(", "))}`);
  if (description.license) parts.push(`License: ${plainText(description.license)}`);
  return parts.length === 0 ? undefined : `${parts.join("\n\n")}\n`;
}
