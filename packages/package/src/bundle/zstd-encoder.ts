import { CCtx, CParameter, EndDirective } from "zstd-napi/binding.js";
import type { Emit, Encoder } from "./encoder.js";

const OUTPUT_BYTES = 1 << 20;

/**
 * zstd through the library's streaming call, on the calling thread, writing into one reused output
 * buffer. Always in multi-threaded mode (at least one worker): compression then runs off the main
 * thread, and the output is the same for every worker count.
 */
export class ZstdEncoder implements Encoder {
  readonly #cctx = new CCtx();
  readonly #output = Buffer.allocUnsafeSlow(OUTPUT_BYTES);
  readonly #emit: Emit;

  constructor(level: number, workers: number, emit: Emit) {
    this.#cctx.setParameter(CParameter.compressionLevel, level);
    this.#cctx.setParameter(CParameter.nbWorkers, Math.max(1, workers));
    this.#cctx.setParameter(CParameter.checksumFlag, 1);
    this.#emit = emit;
  }

  write(input: Buffer): void {
    this.#compress(input, EndDirective.continue);
  }

  end(): void {
    this.#compress(Buffer.alloc(0), EndDirective.end);
  }

  #compress(input: Buffer, directive: EndDirective): void {
    let rest = input;
    for (;;) {
      const [toFlush, produced, consumed] = this.#cctx.compressStream2(this.#output, rest, directive);
      if (produced > 0) this.#emit(this.#output.subarray(0, produced));
      rest = rest.subarray(consumed);
      if (rest.length === 0 && (directive === EndDirective.continue || toFlush === 0)) return;
    }
  }
}
