import type { TransparencyLogEntry } from "@sigstore/bundle";
import { describe, expect, it } from "vitest";
import { logEntryFromAnnotation, rekorBundleAnnotation } from "./rekor-bundle.js";

const body = Buffer.from(JSON.stringify({ kind: "hashedrekord", apiVersion: "0.0.1", spec: {} }));
const entry = {
  logIndex: "42",
  logId: { keyId: Buffer.from("0a0b", "hex") },
  kindVersion: { kind: "hashedrekord", version: "0.0.1" },
  integratedTime: "1700000000",
  inclusionPromise: { signedEntryTimestamp: Buffer.from("set") },
  inclusionProof: {
    logIndex: "0",
    rootHash: Buffer.from("root"),
    treeSize: "1",
    hashes: [],
    checkpoint: { envelope: "note\n" },
  },
  canonicalizedBody: body,
} as unknown as TransparencyLogEntry;

describe("cosign's rekor bundle annotation", () => {
  it("carries cosign's fields", () => {
    const text = rekorBundleAnnotation(entry);
    expect(JSON.parse(text ?? "")).toMatchObject({
      SignedEntryTimestamp: Buffer.from("set").toString("base64"),
      Payload: { body: body.toString("base64"), integratedTime: 1700000000, logIndex: 42, logID: "0a0b" },
    });
  });

  it("reads back the entry it wrote, the proof included", () => {
    const back = logEntryFromAnnotation(rekorBundleAnnotation(entry) ?? "");
    expect(back).toMatchObject({
      logIndex: "42",
      integratedTime: "1700000000",
      kindVersion: { kind: "hashedrekord", version: "0.0.1" },
      inclusionProof: { treeSize: "1", checkpoint: { envelope: "note\n" } },
    });
    expect(typeof back === "string" ? undefined : back.canonicalizedBody).toEqual(body);
  });

  it("writes nothing for an entry without a promise, and refuses what it cannot read", () => {
    expect(rekorBundleAnnotation({ ...entry, inclusionPromise: undefined })).toBeUndefined();
    expect(logEntryFromAnnotation("{")).toMatch(/not JSON/);
    expect(logEntryFromAnnotation('{"Payload":{}}')).toMatch(/lacks/);
  });
});
