import { CosignFormat } from "./cosign-format.js";

/**
 * The payload cosign signs for a container image ("simple signing"): the repository the image
 * was signed in and the manifest digest it names. Key order and spacing follow cosign's output,
 * so the bytes equal what cosign itself would sign for the same reference and digest.
 */
export function simpleSigningPayload(dockerReference: string, manifestDigest: string): Buffer {
  const document = {
    critical: {
      identity: { "docker-reference": dockerReference },
      image: { "docker-manifest-digest": manifestDigest },
      type: CosignFormat.PayloadType,
    },
    optional: null,
  };
  return Buffer.from(JSON.stringify(document), "utf8");
}

export interface SignedClaim {
  dockerReference?: string;
  manifestDigest: string;
}

/** What a payload claims, or a one-line reason it is not a simple signing payload. */
export function readSimpleSigningPayload(bytes: Buffer): SignedClaim | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    return "the signed payload is not JSON";
  }
  const critical = field(parsed, "critical");
  const type = field(critical, "type");
  if (type !== CosignFormat.PayloadType) return "the signed payload is not a cosign image signature";
  const digest = field(field(critical, "image"), "docker-manifest-digest");
  if (typeof digest !== "string") return "the signed payload names no manifest digest";
  const reference = field(field(critical, "identity"), "docker-reference");
  return typeof reference === "string"
    ? { dockerReference: reference, manifestDigest: digest }
    : { manifestDigest: digest };
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}
