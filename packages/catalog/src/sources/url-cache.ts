import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { ExitCode, PkgError, writeFileAtomically } from "@pkg/common";
import { digestHex, sha256Of } from "@pkg/index";

/** `$XDG_CACHE_HOME/pkg-catalog`, else `~/.cache/pkg-catalog`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), ".cache"), "pkg-catalog");
}

interface DocumentEntry {
  url: string;
  etag: string;
  digest: string;
}

/** The persistent cache of `url` sources: digest-addressed files under `objects/sha256/<hex>.<ext>`
 *  (immutable, checked again when read), and for the two unverified documents their last ETag and
 *  content digest under `documents/<sha256 of the URL>.json`. Every write is a temp file renamed. */
export class UrlCache {
  constructor(readonly dir: string) {}

  /** The extension is part of the key: one digest may be published as `.svg` and probed as `.png`. */
  private objectPath(digest: string, ext: string): string {
    return join(this.dir, "objects", "sha256", `${digestHex(digest)}.${ext}`);
  }

  private documentPath(url: string): string {
    return join(this.dir, "documents", `${createHash("sha256").update(url).digest("hex")}.json`);
  }

  /** The cached bytes for `digest`, or undefined (missing, or no longer matching). */
  async getObject(digest: string, ext: string): Promise<Uint8Array | undefined> {
    const bytes = await readIfPresent(this.objectPath(digest, ext));
    return bytes !== undefined && sha256Of(bytes) === digest ? bytes : undefined;
  }

  async putObject(digest: string, ext: string, bytes: Uint8Array): Promise<void> {
    await this.writeAtomic(this.objectPath(digest, ext), bytes);
  }

  /** The last ETag and bytes of a document, when both are still cached. */
  async getDocument(url: string): Promise<{ etag: string; bytes: Uint8Array } | undefined> {
    const meta = await readIfPresent(this.documentPath(url));
    if (meta === undefined) return undefined;
    let entry: DocumentEntry;
    try {
      entry = JSON.parse(Buffer.from(meta).toString("utf8")) as DocumentEntry;
    } catch {
      return undefined;
    }
    if (entry.url !== url || typeof entry.etag !== "string" || typeof entry.digest !== "string")
      return undefined;
    const bytes = await this.getObject(entry.digest, "json").catch(() => undefined);
    return bytes === undefined ? undefined : { etag: entry.etag, bytes };
  }

  async putDocument(url: string, etag: string, bytes: Uint8Array): Promise<void> {
    const digest = sha256Of(bytes);
    await this.putObject(digest, "json", bytes);
    const entry: DocumentEntry = { url, etag, digest };
    await this.writeAtomic(this.documentPath(url), new TextEncoder().encode(JSON.stringify(entry)));
  }

  private async writeAtomic(path: string, bytes: Uint8Array): Promise<void> {
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFileAtomically(path, bytes);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new PkgError(ExitCode.IoError, `cache ${this.dir}: cannot write ${path} (${code})`);
    }
  }
}

async function readIfPresent(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new PkgError(ExitCode.IoError, `cannot read the cache file ${path} (${code ?? String(error)})`);
  }
}
