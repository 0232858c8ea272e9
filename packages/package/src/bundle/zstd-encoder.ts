import binding from "zstd-napi/binding.js";
import type { Emit, Encoder } from "./encoder.js";

const OUTPUT_BYTES = 1 << 20;

/**
 * zstd 1.5.7 added a block pre-splitter, on by default, which on the benchmark tree costs 16% more
 * CPU at level 3 for 1.6% smaller output. It is turned off, so that a level costs what it did
 * before 1.5.7 and what `zstd -N` of Debian's zstd 1.5.4 costs. The parameter is experimental
 * (ZSTD_c_blockSplitterLevel, 1 = no splitting), so it is set only on the version it is known in.
 */
const PRESPLITTER = { zstdVersion: 10507, parameter: 1017, off: 1 };

/**
 * In multi-threaded mode zstd cuts the input into jobs of four windows by default and holds several
 * jobs' input and output at once: about 48 MB at level 3 (2 MiB window, 8 MiB jobs). Levels up to 7
 * have windows of at most 2 MiB; for them, jobs of 4 MiB hold about 19 MB less, for output 0.04%
 * larger at the same speed. Higher levels, with larger windows, keep the default: shorter jobs
 * would cost them more ratio.
 */
const SMALL_JOBS = { upToLevel: 7, jobBytes: 4 << 20 };

/**
 * Contexts of finished encoders, reset and kept for the next one on the same thread: a context
 * holds tens of megabytes the garbage collector does not see, so a thread that allocates little
 * (a bundle worker) would otherwise pile them up. A reset context compresses as a new one does.
 */
const spareContexts: binding.CCtx[] = [];
const MAX_SPARE_CONTEXTS = 2;

/**
 * zstd through the library's streaming call, on the calling thread, writing into one reused output
 * buffer. Always in multi-threaded mode (at least one worker): compression then runs off the main
 * thread, and the output is the same for every worker count.
 */
export class ZstdEncoder implements Encoder {
  readonly #cctx = spareContexts.pop() ?? new binding.CCtx();
  readonly #output = Buffer.allocUnsafeSlow(OUTPUT_BYTES);
  readonly #emit: Emit;
  #released = false;

  constructor(level: number, workers: number, emit: Emit) {
    this.#cctx.setParameter(binding.CParameter.compressionLevel, level);
    this.#cctx.setParameter(binding.CParameter.nbWorkers, Math.max(1, workers));
    this.#cctx.setParameter(binding.CParameter.checksumFlag, 1);
    if (level <= SMALL_JOBS.upToLevel)
      this.#cctx.setParameter(binding.CParameter.jobSize, SMALL_JOBS.jobBytes);
    if (binding.versionNumber() === PRESPLITTER.zstdVersion) {
      this.#cctx.setParameter(PRESPLITTER.parameter, PRESPLITTER.off);
    }
    this.#emit = emit;
  }

  write(input: Buffer): void {
    this.#compress(input, binding.EndDirective.continue);
  }

  end(): void {
    this.#compress(Buffer.alloc(0), binding.EndDirective.end);
    this.#release();
  }

  /** Drops the unfinished frame. */
  abort(): void {
    this.#release();
  }

  /** Resets the context (frame and parameters) for the next encoder; this one is done. */
  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#cctx.reset(binding.ResetDirective.sessionAndParameters);
    if (spareContexts.length < MAX_SPARE_CONTEXTS) spareContexts.push(this.#cctx);
  }

  #compress(input: Buffer, directive: binding.EndDirective): void {
    let rest = input;
    for (;;) {
      const [toFlush, produced, consumed] = this.#cctx.compressStream2(this.#output, rest, directive);
      if (produced > 0) this.#emit(this.#output.subarray(0, produced));
      rest = rest.subarray(consumed);
      if (rest.length === 0 && (directive === binding.EndDirective.continue || toFlush === 0)) return;
    }
  }
}
