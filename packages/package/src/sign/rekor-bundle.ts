import type { TransparencyLogEntry } from "@sigstore/bundle";
import { InclusionProof } from "@sigstore/protobuf-specs";

/**
 * A transparency-log entry as cosign keeps it on a signature layer (`dev.sigstore.cosign/bundle`):
 * the log's signed entry timestamp over the entry's body, time, index and log ID. pkg adds the
 * inclusion proof under `InclusionProof` (cosign reads past fields it does not know), so a
 * verifier can check the entry against the log's signed tree head as well as the promise.
 */
export interface CosignRekorBundle {
  SignedEntryTimestamp: string;
  Payload: { body: string; integratedTime: number; logIndex: number; logID: string };
  InclusionProof?: unknown;
}

/** The annotation text for a log entry that carries an inclusion promise; undefined without one. */
export function rekorBundleAnnotation(entry: TransparencyLogEntry): string | undefined {
  const promise = entry.inclusionPromise?.signedEntryTimestamp;
  if (!promise || !entry.logId) return undefined;
  const bundle: CosignRekorBundle = {
    SignedEntryTimestamp: Buffer.from(promise).toString("base64"),
    Payload: {
      body: Buffer.from(entry.canonicalizedBody).toString("base64"),
      integratedTime: Number(entry.integratedTime),
      logIndex: Number(entry.logIndex),
      logID: Buffer.from(entry.logId.keyId).toString("hex"),
    },
  };
  if (entry.inclusionProof) bundle.InclusionProof = InclusionProof.toJSON(entry.inclusionProof);
  return JSON.stringify(bundle);
}

/** The log entry an annotation describes, or a one-line reason it cannot be read. */
export function logEntryFromAnnotation(text: string): TransparencyLogEntry | string {
  let parsed: CosignRekorBundle;
  try {
    parsed = JSON.parse(text) as CosignRekorBundle;
  } catch {
    return "its transparency-log entry is not JSON";
  }
  const payload = parsed?.Payload;
  if (
    typeof parsed?.SignedEntryTimestamp !== "string" ||
    typeof payload?.body !== "string" ||
    typeof payload.integratedTime !== "number" ||
    typeof payload.logIndex !== "number" ||
    typeof payload.logID !== "string"
  ) {
    return "its transparency-log entry lacks the signed entry timestamp or the entry";
  }
  const body = Buffer.from(payload.body, "base64");
  let kind: unknown;
  let version: unknown;
  try {
    const decoded = JSON.parse(body.toString("utf8")) as { kind?: unknown; apiVersion?: unknown };
    kind = decoded.kind;
    version = decoded.apiVersion;
  } catch {
    return "its transparency-log entry body is not JSON";
  }
  if (typeof kind !== "string" || typeof version !== "string") {
    return "its transparency-log entry body names no kind and version";
  }
  let inclusionProof: TransparencyLogEntry["inclusionProof"];
  if (parsed.InclusionProof !== undefined) {
    try {
      inclusionProof = InclusionProof.fromJSON(parsed.InclusionProof);
    } catch {
      return "its transparency-log inclusion proof cannot be read";
    }
  }
  return {
    logIndex: String(payload.logIndex),
    logId: { keyId: Buffer.from(payload.logID, "hex") },
    kindVersion: { kind, version },
    integratedTime: String(payload.integratedTime),
    inclusionPromise: { signedEntryTimestamp: Buffer.from(parsed.SignedEntryTimestamp, "base64") },
    inclusionProof,
    canonicalizedBody: body,
  } as TransparencyLogEntry;
}
