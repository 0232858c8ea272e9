/** The error body of the distribution API: `{"errors":[{"code":"BLOB_UNKNOWN","message":"...","detail":...}]}`. */
interface RegistryErrorEntry {
  code?: unknown;
  message?: unknown;
}

const MAX_TEXT = 200;

/** The `code`s of a registry error body (empty for anything else). */
export function registryErrorCodes(body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { errors?: unknown };
    if (!Array.isArray(parsed.errors)) return [];
    return parsed.errors
      .map((entry: RegistryErrorEntry) => entry?.code)
      .filter((code): code is string => typeof code === "string");
  } catch {
    return [];
  }
}

/** A short one-line rendering of an error body: `CODE: message; CODE2: ...`, or its first text. */
export function describeRegistryError(body: Buffer): string {
  const text = body.toString("utf8");
  try {
    const parsed = JSON.parse(text) as { errors?: unknown };
    if (Array.isArray(parsed.errors) && parsed.errors.length > 0) {
      return parsed.errors
        .map((entry: RegistryErrorEntry) => {
          const code = typeof entry?.code === "string" ? entry.code : "ERROR";
          return typeof entry?.message === "string" && entry.message ? `${code}: ${entry.message}` : code;
        })
        .join("; ")
        .slice(0, MAX_TEXT);
    }
  } catch {
    // not JSON: fall through to the text
  }
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT)}…` : line;
}
