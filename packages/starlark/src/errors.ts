// The errors of the interpreter: static (syntax and name resolution, before anything runs) and
// dynamic (evaluation, with a position and a Starlark call stack).

/** A place in a source file: 1-based line and column (the column counts UTF-16 code units). */
export interface Position {
  file: string;
  line: number;
  col: number;
}

export function formatPosition(pos: Position): string {
  return `${pos.file}:${pos.line}:${pos.col}`;
}

/** One static problem found while scanning, parsing or resolving a file. */
export interface Diagnostic {
  pos: Position;
  message: string;
}

/**
 * A file that cannot run: `kind` is `syntax` (scanner and parser) or `resolve` (names, bindings,
 * statement placement). `message` is the first problem as `file:line:col: message`; `diagnostics`
 * holds every problem found.
 */
export class StarlarkSyntaxError extends Error {
  override readonly name = "StarlarkSyntaxError";
  constructor(
    readonly kind: "syntax" | "resolve",
    readonly diagnostics: Diagnostic[],
  ) {
    const first = diagnostics[0];
    super(first ? `${formatPosition(first.pos)}: ${first.message}` : `${kind} error`);
  }

  /** Every problem, one per line. */
  describe(): string {
    return this.diagnostics.map((d) => `${formatPosition(d.pos)}: ${d.message}`).join("\n");
  }
}

/**
 * What builtins (the interpreter's and the host's) throw to fail the running Starlark program: a
 * message without a position, which the interpreter turns into a {@link StarlarkEvalError} at the
 * call. `tag` is a free label for the host (an assertion kind, say), kept on the eval error.
 */
export class StarlarkError extends Error {
  override readonly name = "StarlarkError";
  readonly tag: string | undefined;
  constructor(message: string, options: { tag?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.tag = options.tag;
  }
}

/** `fail(...)` called by the program: distinguishable from errors of the interpreter. */
export class StarlarkFail extends StarlarkError {}

/** The step budget ran out, or the host's interrupt hook asked to stop. */
export class StarlarkCancel extends StarlarkError {}

/** One line of a Starlark call stack: where execution was in function `fn`. */
export interface CallFrame extends Position {
  fn: string;
}

/**
 * - `error`: a dynamic error of the program (a type error, an index out of range, a builtin's
 *   arity error, a host function that threw a {@link StarlarkError});
 * - `fail`: the program called `fail()`;
 * - `cancelled`: the step budget or the host's interrupt hook stopped the program;
 * - `internal`: a host function threw something that is not a {@link StarlarkError} (a bug), kept
 *   as `cause`.
 */
export type EvalErrorKind = "error" | "fail" | "cancelled" | "internal";

/**
 * A dynamic error: `message` is one line, `file:line:col: what`; `frames` is the Starlark call stack,
 * innermost first; {@link backtrace} renders it (outermost first, one line per frame).
 */
export class StarlarkEvalError extends Error {
  override readonly name = "StarlarkEvalError";
  readonly frames: CallFrame[] = [];
  constructor(
    readonly kind: EvalErrorKind,
    /** The message without position. */
    readonly detail: string,
    frame: CallFrame,
    readonly tag: string | undefined,
    cause?: unknown,
  ) {
    super(`${formatPosition(frame)}: ${kind === "fail" ? `fail: ${detail}` : detail}`, { cause });
    this.frames.push(frame);
  }

  /** Where the error happened (the innermost frame). */
  get pos(): Position {
    const f = this.frames[0] as CallFrame;
    return { file: f.file, line: f.line, col: f.col };
  }

  /** The call stack, outermost call first, then the error. */
  backtrace(): string {
    const lines = ["Traceback (most recent call last):"];
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const f = this.frames[i] as CallFrame;
      lines.push(`  ${formatPosition(f)}: in ${f.fn}`);
    }
    lines.push(`Error: ${this.kind === "fail" ? `fail: ${this.detail}` : this.detail}`);
    return lines.join("\n");
  }
}
