import type { Logger } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { type PayloadSigner, type SignOutcome, type Subject, signSubjects } from "@pkg/package/sign";
import type { PlatformManifest } from "./carried-entries.js";

/**
 * Signs what a run publishes, with the signer the spec's `sign` resolved to once before the
 * first push, and keeps every outcome: a version stays published when its signing fails, and the
 * command reports the failures at its end (`pipeline sign` completes them later).
 */
export class RunSigner {
  readonly outcomes: SignOutcome[] = [];

  constructor(
    readonly signer: PayloadSigner,
    private readonly log: Logger,
  ) {}

  /** Signs the platform manifests this run pushed, then the image index each written tag now holds. */
  async signVersion(
    target: Target,
    manifests: readonly PlatformManifest[],
    tags: readonly string[],
  ): Promise<void> {
    const subjects: Subject[] = manifests.map(({ platform, entry }) => ({
      descriptor: { mediaType: entry.mediaType, digest: entry.digest, size: entry.size },
      label: `${target.displayName}@${entry.digest.slice(0, 19)} (${platform.key})`,
      platform: platform.key,
    }));
    for (const tag of new Set(tags)) {
      const stored = await target.fetchManifest(tag).catch(() => undefined);
      if (stored)
        subjects.push({ descriptor: stored.descriptor, label: `${target.displayName}:${tag} (index)` });
      else this.log.warn(`${target.displayName}:${tag}: cannot read the tag to sign its index`);
    }
    this.outcomes.push(...(await signSubjects(target, subjects, this.signer, { log: this.log })));
  }

  failures(): SignOutcome[] {
    return this.outcomes.filter((o) => o.status === "failed");
  }

  /** One line for a run whose signing failed somewhere, or undefined. */
  failureLine(): string | undefined {
    const failed = this.failures();
    const first = failed[0];
    if (!first) return undefined;
    return `${failed.length} of ${this.outcomes.length} signature${this.outcomes.length === 1 ? "" : "s"} failed (${first.label}: ${first.error?.message ?? "failed"}); what was pushed stays published: pkg-mirror package pipeline sign signs it`;
  }
}
