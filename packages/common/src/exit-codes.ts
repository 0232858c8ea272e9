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
  /** Stopped by SIGINT (128 + 2), after finishing what could not be left half done. */
  Interrupted: 130,
  /** Stopped by SIGTERM (128 + 15), likewise. */
  Terminated: 143,
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
  130: "interrupted",
  143: "terminated",
};

export function exitCodeName(code: ExitCode): string {
  return names[code];
}
