import { describe, expect, it } from "vitest";
import { readSimpleSigningPayload, simpleSigningPayload } from "./simple-signing.js";

const DIGEST = `sha256:${"ab".repeat(32)}`;

describe("simple signing payload", () => {
  it("is cosign's document, byte for byte", () => {
    expect(simpleSigningPayload("127.0.0.1:5000/acme/tool", DIGEST).toString()).toBe(
      `{"critical":{"identity":{"docker-reference":"127.0.0.1:5000/acme/tool"},"image":{"docker-manifest-digest":"${DIGEST}"},"type":"cosign container image signature"},"optional":null}`,
    );
  });

  it("reads back the claim", () => {
    expect(readSimpleSigningPayload(simpleSigningPayload("r/x", DIGEST))).toEqual({
      dockerReference: "r/x",
      manifestDigest: DIGEST,
    });
  });

  it("reads cosign's payload with optional annotations", () => {
    const text = `{"critical":{"identity":{"docker-reference":"h/r"},"image":{"docker-manifest-digest":"${DIGEST}"},"type":"cosign container image signature"},"optional":{"a":"b"}}`;
    expect(readSimpleSigningPayload(Buffer.from(text))).toMatchObject({ manifestDigest: DIGEST });
  });

  it("refuses what is not a cosign image signature, saying why", () => {
    expect(readSimpleSigningPayload(Buffer.from("nope"))).toBe("the signed payload is not JSON");
    expect(readSimpleSigningPayload(Buffer.from('{"critical":{"type":"x"}}'))).toMatch(/not a cosign/);
    expect(
      readSimpleSigningPayload(Buffer.from('{"critical":{"type":"cosign container image signature"}}')),
    ).toMatch(/no manifest digest/);
  });
});
