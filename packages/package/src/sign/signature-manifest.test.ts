import { sha256Digest } from "@pkg/oci";
import { describe, expect, it } from "vitest";
import { CosignFormat } from "./cosign-format.js";
import { readSignatureLayers, SIGNATURE_CONFIG, signatureManifest } from "./signature-manifest.js";

const subject = {
  mediaType: "application/vnd.oci.image.manifest.v1+json",
  digest: `sha256:${"cd".repeat(32)}`,
  size: 512,
};

describe("signature manifest", () => {
  it("is an OCI 1.1 referrer typed as cosign types signatures", () => {
    const payload = Buffer.from("payload");
    const { manifest, config } = signatureManifest(subject, payload, { signature: "c2ln" });
    const doc = JSON.parse(manifest.toString());
    expect(doc.artifactType).toBe(CosignFormat.SignatureArtifactType);
    expect(doc.config).toEqual({
      mediaType: CosignFormat.SignatureArtifactType,
      digest: sha256Digest(SIGNATURE_CONFIG),
      size: 2,
    });
    expect(config.digest).toBe(doc.config.digest);
    expect(doc.subject).toEqual(subject);
    expect(doc.layers).toEqual([
      {
        mediaType: CosignFormat.SimpleSigningMediaType,
        digest: sha256Digest(payload),
        size: 7,
        annotations: { "dev.cosignproject.cosign/signature": "c2ln" },
      },
    ]);
  });

  it("reads back every signature layer with its evidence, skipping others", () => {
    const { manifest } = signatureManifest(subject, Buffer.from("p"), {
      signature: "c2ln",
      certificate: "CERT",
      bundle: "{}",
    });
    expect(readSignatureLayers(manifest)).toEqual([
      {
        payload: {
          mediaType: CosignFormat.SimpleSigningMediaType,
          digest: sha256Digest(Buffer.from("p")),
          size: 1,
        },
        annotations: { signature: "c2ln", certificate: "CERT", bundle: "{}" },
      },
    ]);
    const legacy = {
      layers: [
        { mediaType: "application/octet-stream", digest: "sha256:00", size: 1 },
        { mediaType: CosignFormat.SimpleSigningMediaType, digest: "sha256:01", size: 1 },
        {
          mediaType: CosignFormat.SimpleSigningMediaType,
          digest: "sha256:02",
          size: 3,
          annotations: { "dev.cosignproject.cosign/signature": "AA==" },
        },
      ],
    };
    expect(readSignatureLayers(Buffer.from(JSON.stringify(legacy)))).toHaveLength(1);
    expect(readSignatureLayers(Buffer.from("not json"))).toEqual([]);
  });
});
