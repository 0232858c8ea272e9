import { readFile, stat } from "node:fs/promises";
import { writeFileAtomically } from "@pkg/common";

/**
 * A bundle's digest beside it, `<bundle>.digest.json`: written by `package create` once the bundle
 * is in place, so that `package push` need not read a large bundle a second time. It records the
 * bundle's identity (inode, size, modification time) as well: the digest is trusted only while the
 * bundle is provably the file that was hashed.
 */
export function sidecarPath(file: string): string {
  return `${file}.digest.json`;
}

interface Sidecar {
  digest: string;
  size: string;
  ino: string;
  mtimeNs: string;
}

async function identity(file: string): Promise<Omit<Sidecar, "digest">> {
  const info = await stat(file, { bigint: true });
  return { size: String(info.size), ino: String(info.ino), mtimeNs: String(info.mtimeNs) };
}

export async function writeDigestSidecar(file: string, digest: string): Promise<void> {
  const record: Sidecar = { digest, ...(await identity(file)) };
  await writeFileAtomically(sidecarPath(file), `${JSON.stringify(record)}\n`);
}

/**
 * The digest the sidecar records, when the bundle is still the file it describes (same inode, size
 * and nanosecond modification time); anything else, a missing or malformed sidecar included,
 * gives undefined and the caller hashes the file itself.
 */
export async function trustedSidecarDigest(file: string): Promise<string | undefined> {
  try {
    const text = await readFile(sidecarPath(file), "utf8");
    if (text.length > 1024) return undefined;
    const record = JSON.parse(text) as Partial<Sidecar>;
    if (typeof record.digest !== "string" || !/^sha256:[0-9a-f]{64}$/.test(record.digest)) return undefined;
    const now = await identity(file);
    const same = now.size === record.size && now.ino === record.ino && now.mtimeNs === record.mtimeNs;
    return same ? record.digest : undefined;
  } catch {
    return undefined;
  }
}
