import { ExitCode, PkgError } from "@pkg/common";
import { type Digest, parseDigest } from "./digest.js";

/** The entries of a sha256sum-format sidecar: file name to digest. */
export type ChecksumsTable = ReadonlyMap<string, Digest>;

/**
 * Parses a sha256sum-format file: `HASH  NAME` per line (a `*` before the name marks binary mode,
 * a leading `./` is dropped); `#` comments and blank lines are skipped. A line of another shape,
 * or one name listed with two different hashes, makes the whole file malformed (exit 65, naming
 * `source` and the line): a sidecar that does not parse cannot vouch for anything.
 */
export function parseChecksumsFile(text: string, source: string): ChecksumsTable {
  const table = new Map<string, Digest>();
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const fail = (why: string) =>
      new PkgError(ExitCode.Data, `checksums file ${source}, line ${index + 1}: ${why}`);
    const match = /^([0-9a-fA-F]{64})\s+\*?(.+)$/.exec(line);
    const digest = match && parseDigest(match[1] ?? "");
    if (!match || !digest) throw fail("expected a sha256 hash and a file name");
    const name = (match[2] ?? "").replace(/^\.\//, "");
    const earlier = table.get(name);
    if (earlier && earlier.hex !== digest.hex) throw fail(`${name} is listed twice with different hashes`);
    table.set(name, digest);
  }
  return table;
}
