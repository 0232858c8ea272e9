import { ExitCode, PkgError } from "@pkg/common";

/** The codes of catalog-config.md's Errors table. */
export const CONFIG_ERROR_CODES = [
  "MISSING_FILE",
  "READ_ERROR",
  "INVALID_JSON",
  "INVALID_TYPE",
  "UNKNOWN_KEY",
  "UNSUPPORTED_VERSION",
  "SOURCE_DISCRIMINANT",
  "EMPTY_SOURCES",
  "MULTIPLE_ROOT",
  "MULTIPLE_DEFAULT",
  "LABEL_CONFLICT",
  "LABEL_PREFIX_MISMATCH",
  "PATH_ESCAPE",
] as const;

export type ConfigErrorCode = (typeof CONFIG_ERROR_CODES)[number];

/** A config load error: exit 65 from every command; the message starts with the code. */
export class ConfigError extends PkgError {
  readonly code: ConfigErrorCode;
  /** Dotted key path the error is about (`sources[1].label`, `brand.logo`), when there is one. */
  readonly keyPath: string | undefined;

  constructor(code: ConfigErrorCode, message: string, keyPath?: string) {
    super(ExitCode.Data, `${code}: ${message}`);
    this.name = "ConfigError";
    this.code = code;
    this.keyPath = keyPath;
  }
}
