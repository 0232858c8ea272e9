import { dataError } from "@pkg/common";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Whether the bytes are what the extension says: a PNG starts with the PNG signature; an SVG is
 * text whose first markup (after an optional BOM, XML declaration, comments and doctype) is an
 * `<svg` element.
 */
export function logoMatches(bytes: Buffer, kind: "svg" | "png"): boolean {
  if (kind === "png") return bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE);
  if (bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return false;
  let text = bytes.subarray(0, 64 * 1024).toString("utf8");
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const prolog = /^\s*(?:(?:<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*/i;
  return /^<svg[\s>/]/i.test(text.replace(prolog, ""));
}

/** Refuses logo bytes that do not match the file's extension (exit 65). */
export function checkLogoBytes(bytes: Buffer, kind: "svg" | "png", path: string): void {
  if (!logoMatches(bytes, kind)) {
    throw dataError(
      `logo ${path}: the file is not ${kind === "png" ? "a PNG image" : "an SVG document"}, as its .${kind} extension says`,
    );
  }
}
