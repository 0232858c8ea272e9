import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { ExitCode, PkgError } from "@pkg/common";
import type { StreamBody } from "@pkg/net";
import type { BlobSource } from "./types.js";
import { checkContent } from "./upload-session.js";

/** Buffers in memory are sent in slices, so hashing and sending overlap. */
const SLICE = 1024 * 1024;

/** One send of the body: whether the content proved right, or why reading it failed. */
interface Send {
  verified: boolean;
  failure?: unknown;
}

async function* pieces(opened: NodeJS.ReadableStream | Buffer): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(opened)) {
    for (let at = 0; at < opened.length; at += SLICE) yield opened.subarray(at, at + SLICE);
    return;
  }
  for await (const chunk of opened as AsyncIterable<Buffer | string>)
    yield typeof chunk === "string" ? Buffer.from(chunk) : chunk;
}

/**
 * The body of a streamed blob upload: the source's bytes, hashed as they go out. The last piece
 * is held back until the source has ended at the declared size with the declared digest, so
 * the registry never receives a complete body of wrong content; a wrong source fails the send
 * with the content check's error (exit 65).
 */
export class VerifiedBody implements StreamBody {
  readonly length: number;
  #send: Send | undefined;

  constructor(
    private readonly source: BlobSource,
    private readonly operation: string,
  ) {
    this.length = source.size;
  }

  /** Whether the latest send read the whole source and found it as declared. */
  get verified(): boolean {
    return this.#send?.verified ?? false;
  }

  /** Why the latest send could not read the source as declared (its own error, or the content check's). */
  get failure(): unknown {
    return this.#send?.failure;
  }

  open(): Readable {
    const send: Send = { verified: false };
    this.#send = send;
    return Readable.from(this.#bytes(send), { objectMode: false });
  }

  /** The declared digest while the source says its storage is unchanged; otherwise a refusal. */
  async #vouchedDigest(): Promise<string> {
    if (await this.source.unchanged?.()) return this.source.digest;
    throw new PkgError(
      ExitCode.Data,
      `${this.operation}: the content changed while it was being sent; nothing committed`,
    );
  }

  async *#bytes(send: Send): AsyncGenerator<Buffer> {
    try {
      const size = this.source.size;
      // a source that can vouch for itself is checked once at the end instead of hashed again
      const hash = this.source.unchanged ? undefined : createHash("sha256");
      let received = 0;
      let extra = 0;
      let held: Buffer | undefined;
      for await (const chunk of pieces(this.source.open())) {
        const part = chunk.subarray(0, size - received);
        extra += chunk.length - part.length;
        if (part.length > 0) {
          hash?.update(part);
          received += part.length;
          if (held) yield held;
          held = part;
        }
        if (extra > 0) break;
      }
      const digest = hash ? `sha256:${hash.digest("hex")}` : await this.#vouchedDigest();
      checkContent(this.source, received + extra, digest, this.operation);
      send.verified = true;
      if (held) yield held;
    } catch (error) {
      send.failure = error;
      throw error;
    }
  }
}
