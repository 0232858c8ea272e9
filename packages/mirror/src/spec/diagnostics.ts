import { ExitCode, PkgError } from "@pkg/common";

/** Where in a spec file a problem is: 1-based line and column. */
export interface SpecPosition {
  file: string;
  line: number;
  col: number;
}

/** One problem found in a spec file, as data (`--format json`) and as one line. */
export interface SpecDiagnostic extends SpecPosition {
  exitCode: typeof ExitCode.Usage | typeof ExitCode.Data;
  /** Dotted key path from the document root: `platforms.linux/amd64.containers[0].image`. */
  keyPath: string;
  message: string;
}

export function formatDiagnostic(d: SpecDiagnostic): string {
  return `${d.file}:${d.line}:${d.col}: ${d.keyPath || "(document)"}: ${d.message}`;
}

/**
 * The problem that decides a load's exit code: a usage problem (64) anywhere wins over data
 * problems (65), so the first usage problem; else the first problem.
 */
export function decidingDiagnostic(diagnostics: readonly SpecDiagnostic[]): SpecDiagnostic | undefined {
  return diagnostics.find((d) => d.exitCode === ExitCode.Usage) ?? diagnostics[0];
}

/**
 * Thrown by the loader: every problem travels as data, in file order; the deciding one (see
 * `decidingDiagnostic`) gives the exit code and the message.
 */
export class SpecError extends PkgError {
  readonly diagnostics: SpecDiagnostic[];

  constructor(diagnostics: SpecDiagnostic[]) {
    const deciding = decidingDiagnostic(diagnostics);
    if (!deciding) throw new Error("SpecError needs at least one diagnostic");
    const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : "";
    super(deciding.exitCode, `${formatDiagnostic(deciding)}${more}`);
    this.name = "SpecError";
    this.diagnostics = diagnostics;
  }
}

/** The closest of `candidates` to `word`, when it is near enough to be a likely typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(1, Math.floor(word.length / 3));
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
