import { ExitCode, PkgError } from "@pkg/common";

/** The options every Target method takes last: a signal that cuts the operation in flight. */
export interface OperationOptions {
  signal?: AbortSignal;
}

/**
 * The error an aborted operation rejects with: the signal's reason when it is a PkgError (the
 * push attempt deadline aborts with exit 75), else exit 75 naming the operation — an abort is an
 * interruption, not a verdict on the content, so another attempt may succeed.
 */
export function abortError(signal: AbortSignal, operation: string): PkgError {
  const reason: unknown = signal.reason;
  if (reason instanceof PkgError) return reason;
  const detail = reason instanceof Error && reason.name !== "AbortError" ? ` (${reason.message})` : "";
  return new PkgError(ExitCode.Transient, `${operation}: aborted${detail}`);
}

/** Throws `abortError` when the signal has fired. */
export function checkAborted(signal: AbortSignal | undefined, operation: string): void {
  if (signal?.aborted) throw abortError(signal, operation);
}

/**
 * Settles as `promise` does, or rejects with `abortError` as soon as the signal fires; a value
 * that arrives after the abort is handed to `release` (a response body to let go).
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  operation: string,
  release?: (late: T) => void,
): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.then(
      (late) => release?.(late),
      () => undefined,
    );
    return Promise.reject(abortError(signal, operation));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.then(
        (late) => release?.(late),
        () => undefined,
      );
      reject(abortError(signal, operation));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? abortError(signal, operation) : error);
      },
    );
  });
}

/**
 * Destroys `stream` with `abortError` when the signal fires before the stream closes (a response
 * body being read cuts its connection; a blob being written is removed by its writer).
 */
export function destroyOnAbort(
  stream: NodeJS.ReadableStream & {
    destroy(error?: Error): unknown;
    once(e: "close", l: () => void): unknown;
  },
  signal: AbortSignal | undefined,
  operation: string,
): void {
  if (signal === undefined) return;
  if (signal.aborted) {
    stream.destroy(abortError(signal, operation));
    return;
  }
  const onAbort = () => stream.destroy(abortError(signal, operation));
  signal.addEventListener("abort", onAbort, { once: true });
  stream.once("close", () => signal.removeEventListener("abort", onAbort));
}
