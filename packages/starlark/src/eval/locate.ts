// Turning what a builtin or an operator threw into a StarlarkEvalError at a position, and growing
// the Starlark call stack as the error leaves each call.
import {
  type CallFrame,
  StarlarkCancel,
  StarlarkError,
  StarlarkEvalError,
  StarlarkFail,
  StarlarkSyntaxError,
} from "../errors.js";

export interface Where {
  line: number;
  col: number;
}

export interface FrameInfo {
  readonly code: { readonly name: string; readonly file: string };
}

function frameOf(fr: FrameInfo, at: Where): CallFrame {
  return { file: fr.code.file, line: at.line, col: at.col, fn: fr.code.name };
}

export function toEvalError(e: unknown, frame: CallFrame): StarlarkEvalError {
  if (e instanceof StarlarkEvalError) return e;
  if (e instanceof StarlarkCancel) return new StarlarkEvalError("cancelled", e.message, frame, e.tag, e);
  if (e instanceof StarlarkFail) return new StarlarkEvalError("fail", e.message, frame, e.tag, e);
  if (e instanceof StarlarkError) return new StarlarkEvalError("error", e.message, frame, e.tag, e);
  if (e instanceof StarlarkSyntaxError) return new StarlarkEvalError("error", e.message, frame, undefined, e);
  if (e instanceof RangeError) {
    if (/call stack/i.test(e.message)) {
      return new StarlarkEvalError("error", "stack overflow: calls nested too deeply", frame, undefined, e);
    }
    if (/invalid .*length|allocation failed|out of memory/i.test(e.message)) {
      return new StarlarkEvalError("error", "out of memory: a value grew too large", frame, undefined, e);
    }
  }
  const text = e instanceof Error ? e.message : String(e);
  return new StarlarkEvalError("internal", `internal error: ${text}`, frame, undefined, e);
}

/** An error raised at `at` in frame `fr` (kept as is when it already has a position). */
export function locate(e: unknown, fr: FrameInfo, at: Where): StarlarkEvalError {
  if (e instanceof StarlarkEvalError) return e;
  return toEvalError(e, frameOf(fr, at));
}

/** An error leaving the call at `at`: a callee's error gains this frame; the call's own error is located here. */
export function locateCall(e: unknown, fr: FrameInfo, at: Where): StarlarkEvalError {
  if (e instanceof StarlarkEvalError) {
    e.frames.push(frameOf(fr, at));
    return e;
  }
  return toEvalError(e, frameOf(fr, at));
}

/** A dynamic error of the program at `at`. */
export function evalError(fr: FrameInfo, at: Where, message: string): StarlarkEvalError {
  return new StarlarkEvalError("error", message, frameOf(fr, at), undefined);
}
