// XML 1.0 text and attribute escaping, and the decoding of entity and character references.

/**
 * Characters XML 1.0 cannot carry at all, not even as a character reference: C0 controls other
 * than tab, line feed and carriage return, lone surrogates, U+FFFE and U+FFFF. Captured output
 * holds them (terminal colour codes start with U+001B).
 */
const UNREPRESENTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `\x1b` for U+001B: how a character XML cannot carry is written instead, visibly. */
function visible(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`;
}

/** Text content: `&`, `<` and `>` escaped, characters XML cannot carry written as `\xNN`. */
export function escapeText(text: string): string {
  return text
    .replace(UNREPRESENTABLE, visible)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r/g, "&#13;");
}

/**
 * An attribute value in double quotes: also `"` escaped, and tab, line feed and carriage return as
 * character references, since a parser turns literal ones into spaces.
 */
export function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;");
}

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/**
 * Decodes the predefined entities and character references of raw XML text (what a parser that
 * leaves entities alone hands over); an unknown entity is left as written.
 */
export function decodeReferences(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, ref: string) => {
    if (ref.startsWith("#")) {
      const code = ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref] ?? whole;
  });
}

/** Text content as a parser reports it: line ends normalised to line feeds, then references decoded. */
export function decodeText(raw: string): string {
  return decodeReferences(raw.replace(/\r\n?/g, "\n"));
}

/** An attribute value as a parser reports it: literal tabs and line breaks become spaces, then references are decoded. */
export function decodeAttribute(raw: string): string {
  return decodeReferences(raw.replace(/\r\n|[\t\n\r]/g, " "));
}
