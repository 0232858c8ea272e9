import { ExitCode, PkgError } from "@pkg/common";

/** One index file that must not be used: too large, outside the index tree, not a regular file, or
 *  not the bytes its digest names. A package root or object with this problem is skipped with a
 *  warning; for config.json or c/index.json it is fatal (exit 65). */
export class IndexFileError extends PkgError {
  constructor(where: string, reason: string) {
    super(ExitCode.Data, `${where}: ${reason}`);
    this.name = "IndexFileError";
  }
}
