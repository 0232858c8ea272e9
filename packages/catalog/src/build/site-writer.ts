import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join, posix, resolve, sep } from "node:path";
import { dataError, ExitCode, PkgError } from "@pkg/common";

/** A relative site path: `/`-separated, no empty, `.` or `..` segment, no backslash or control character. */
export function isSafeRelativePath(path: string): boolean {
  if (
    path.length === 0 ||
    path.startsWith("/") ||
    [...path].some((c) => c === "\\" || c.charCodeAt(0) < 0x20)
  ) {
    return false;
  }
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

/**
 * Writes the files of one site under its root. Every path is checked to stay inside the root, and a
 * second write to one path (or a file where a directory is, or the reverse) is a route collision.
 */
export class SiteWriter {
  readonly root: string;
  private readonly files = new Map<string, string>();
  private readonly dirs = new Set<string>();
  private readonly made = new Set<string>();

  constructor(root: string) {
    this.root = resolve(root);
  }

  get fileCount(): number {
    return this.files.size;
  }

  private claim(path: string, owner: string): string {
    const normalised = path.replace(/^\/+/, "");
    if (!isSafeRelativePath(normalised) || posix.normalize(normalised) !== normalised) {
      throw dataError(
        `refusing to write ${JSON.stringify(path)} for ${owner}: not a plain path inside the site`,
      );
    }
    const absolute = resolve(this.root, normalised);
    if (!absolute.startsWith(this.root + sep)) {
      throw dataError(`refusing to write ${JSON.stringify(path)} for ${owner}: outside the output directory`);
    }
    const previous = this.files.get(normalised);
    if (previous !== undefined || this.dirs.has(normalised)) {
      throw dataError(
        `route collision: /${normalised} is produced by ${previous ?? "a directory"} and by ${owner}`,
      );
    }
    const segments = normalised.split("/");
    for (let i = 1; i < segments.length; i++) {
      const dir = segments.slice(0, i).join("/");
      const file = this.files.get(dir);
      if (file !== undefined)
        throw dataError(
          `route collision: /${dir} is produced by ${file} and used as a directory by ${owner}`,
        );
      this.dirs.add(dir);
    }
    this.files.set(normalised, owner);
    return absolute;
  }

  private async ensureDir(absoluteFile: string): Promise<void> {
    const dir = absoluteFile.slice(0, absoluteFile.lastIndexOf(sep));
    if (this.made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.made.add(dir);
  }

  /**
   * Writes synchronously: for many small files (the mirrored index) one blocking call each is several
   * times faster than queueing them through the thread pool, and nothing else runs meanwhile.
   */
  writeSync(path: string, data: Uint8Array, owner: string, sameAs?: string): void {
    const absolute = this.claim(path, owner);
    const dir = absolute.slice(0, absolute.lastIndexOf(sep));
    try {
      if (!this.made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        this.made.add(dir);
      }
      if (sameAs === undefined || !this.tryLink(sameAs, absolute))
        writeFileSync(absolute, data, { flag: "wx" });
    } catch (error) {
      ioError(path)(error as NodeJS.ErrnoException);
    }
  }

  /** A second copy of a file already written (`sameAs`, a site path) as a hard link: the same bytes
   *  without writing them twice. False where the filesystem has no hard links. */
  private tryLink(sameAs: string, absolute: string): boolean {
    if (!this.files.has(sameAs)) return false;
    try {
      linkSync(resolve(this.root, sameAs), absolute);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (
        code === "EPERM" ||
        code === "ENOTSUP" ||
        code === "EXDEV" ||
        code === "EMLINK" ||
        code === "ENOSYS"
      )
        return false;
      throw error;
    }
  }

  /** Claims a path and creates its directory, for a writer elsewhere (a page worker). */
  async prepare(path: string, owner: string): Promise<string> {
    const absolute = this.claim(path, owner);
    await this.ensureDir(absolute);
    return absolute;
  }

  async write(path: string, data: string | Uint8Array, owner: string): Promise<void> {
    const absolute = this.claim(path, owner);
    await this.ensureDir(absolute);
    await writeFile(absolute, data, { flag: "wx" }).catch(ioError(path));
  }

  async copy(path: string, from: string, owner: string): Promise<void> {
    const absolute = this.claim(path, owner);
    await this.ensureDir(absolute);
    await copyFile(from, absolute).catch(ioError(path));
  }

  /** The absolute path of a page route's `index.html`. */
  static pagePath(route: string): string {
    return join(route, "index.html").replace(/^\/+/, "");
  }
}

function ioError(path: string): (error: NodeJS.ErrnoException) => never {
  return (error) => {
    if (error instanceof PkgError) throw error;
    throw new PkgError(ExitCode.IoError, `cannot write ${path}: ${error.code ?? error.message}`, {
      cause: error,
    });
  };
}
