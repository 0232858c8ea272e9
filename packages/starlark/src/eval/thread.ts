// A thread runs Starlark code: it carries the step budget, the interrupt hook, the print handler,
// the recursion policy and the host's per-run data.
import { type CallFrame, StarlarkCancel, StarlarkError } from "../errors.js";
import { Callable, typeName, type Value } from "../values/value.js";

export interface ThreadOptions {
  /** Stop with a `cancelled` error after this many steps (loop iterations and calls). */
  maxSteps?: number;
  /**
   * Called every few thousand steps: return a reason (a non-empty string) to stop the program
   * with a `cancelled` error; return nothing to go on. Use it for a deadline.
   */
  interrupt?: () => string | undefined | null | false;
  /** Receives each line `print()` writes (without the newline). Default: console.error. */
  print?: (message: string, thread: Thread) => void;
  /** Allow a function to call itself, directly or not (the spec forbids it). */
  allowRecursion?: boolean;
  /** The deepest nesting of Starlark calls (default 1000). */
  maxCallDepth?: number;
}

const CHECK_INTERVAL = 4096;

export class Thread {
  steps = 0;
  /** The step count at which {@link checkpoint} runs next. */
  checkAt: number;
  depth = 0;
  readonly maxSteps: number;
  readonly maxCallDepth: number;
  readonly allowRecursion: boolean;
  /** Data the host keeps for the length of a run. */
  readonly local = new Map<string, unknown>();
  private readonly interruptHook: ThreadOptions["interrupt"];
  private readonly printHook: (message: string, thread: Thread) => void;

  constructor(options: ThreadOptions = {}) {
    this.maxSteps = options.maxSteps ?? Number.POSITIVE_INFINITY;
    this.maxCallDepth = options.maxCallDepth ?? 1000;
    this.allowRecursion = options.allowRecursion ?? false;
    this.interruptHook = options.interrupt;
    this.printHook = options.print ?? ((m) => console.error(m));
    this.checkAt = Math.min(CHECK_INTERVAL, this.maxSteps + 1);
  }

  /** Runs when the step count reaches {@link checkAt}: enforces the budget and asks the interrupt hook. */
  checkpoint(): void {
    if (this.steps > this.maxSteps) {
      throw new StarlarkCancel(`too many steps: the budget of ${this.maxSteps} steps is spent`);
    }
    if (this.interruptHook) {
      const reason = this.interruptHook();
      if (reason) throw new StarlarkCancel(`cancelled: ${reason}`);
    }
    this.checkAt = Math.min(this.steps + CHECK_INTERVAL, this.maxSteps + 1);
  }

  print(message: string): void {
    this.printHook(message, this);
  }

  /** Calls a Starlark or built-in function from host code. */
  call(fn: Value, args: Value[] = [], kwargs: Record<string, Value> = {}): Value {
    const names = Object.keys(kwargs);
    const all = names.length === 0 ? [...args] : [...args, ...names.map((n) => kwargs[n] as Value)];
    return callValue(fn, this, all, names.length === 0 ? null : names);
  }
}

export function callValue(
  fn: Value,
  thread: Thread,
  args: Value[],
  kwnames: readonly string[] | null,
): Value {
  if (fn instanceof Callable) return fn.call(thread, args, kwnames);
  throw new StarlarkError(`invalid call of non-function (${typeName(fn)})`);
}

/** A frame of a running Starlark function. */
export interface FrameLike {
  readonly code: { readonly name: string; readonly file: string };
}

export function frameAt(fr: FrameLike, line: number, col: number): CallFrame {
  return { file: fr.code.file, line, col, fn: fr.code.name };
}
