/** Process exit codes (sysexits), as the spec assigns them. The only place they are defined. */
export const ExitCode = {
  Ok: 0,
  Failed: 1,
  Usage: 64,
  Data: 65,
  Unavailable: 69,
  IoError: 74,
  Transient: 75,
  Permission: 77,
  Config: 78,
  AuthRejected: 80,
  Unsupported: 82,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

const names: Record<ExitCode, string> = {
  0: "ok",
  1: "failed",
  64: "usage",
  65: "data",
  69: "unavailable",
  74: "io",
  75: "transient",
  77: "permission",
  78: "config",
  80: "auth-rejected",
  82: "unsupported",
};

export function exitCodeName(code: ExitCode): string {
  return names[code];
}
