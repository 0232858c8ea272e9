import { ExitCode, PkgError } from "@pkg/common";

/** A document of the index that does not follow the wire format: exit 65, one line naming the file
 *  (`where`) and the JSON path of the offending value. */
export class IndexFormatError extends PkgError {
  readonly file: string;
  /** `$`, `$.tags[".28.1"]`, `$.manifests[0].digest`; empty when the whole file is unreadable. */
  readonly jsonPath: string;
  readonly reason: string;

  constructor(file: string, jsonPath: string, reason: string) {
    super(ExitCode.Data, jsonPath === "" ? `${file}: ${reason}` : `${file}: ${jsonPath}: ${reason}`);
    this.name = "IndexFormatError";
    this.file = file;
    this.jsonPath = jsonPath;
    this.reason = reason;
  }
}
