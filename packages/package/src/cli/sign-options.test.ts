import { describe, expect, it } from "vitest";
import { signModeOf } from "./sign-options.js";

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return (error as { exitCode: number; message: string }).message;
  }
  return undefined;
};

describe("signModeOf", () => {
  it("key mode uploads to a log only with --log-upload (the public log unless --log-url)", () => {
    expect(signModeOf({ key: "k.pem" })).toEqual({
      mode: "key",
      key: { form: "file", path: "k.pem", text: "k.pem" },
    });
    expect(signModeOf({ key: "k.pem", logUpload: false })).not.toHaveProperty("logUrl");
    expect(signModeOf({ key: "k.pem", logUpload: true })).toMatchObject({
      logUrl: "https://rekor.sigstore.dev",
    });
    expect(signModeOf({ key: "k.pem", logUpload: true, logUrl: "https://rekor.internal" })).toMatchObject({
      logUrl: "https://rekor.internal",
    });
  });

  it("keyless always names both services, the public ones by default", () => {
    expect(signModeOf({})).toEqual({
      mode: "keyless",
      caUrl: "https://fulcio.sigstore.dev",
      logUrl: "https://rekor.sigstore.dev",
    });
    expect(signModeOf({ caUrl: "http://127.0.0.1:9/", logUrl: "http://127.0.0.1:8" })).toMatchObject({
      caUrl: "http://127.0.0.1:9",
      logUrl: "http://127.0.0.1:8",
    });
  });

  it("refuses flags that do not belong to the mode", () => {
    expect(refusal(() => signModeOf({ key: "k", caUrl: "https://ca" }))).toMatch(/--ca-url is for keyless/);
    expect(refusal(() => signModeOf({ key: "k", logUrl: "https://log" }))).toMatch(/needs --log-upload/);
    expect(refusal(() => signModeOf({ logUpload: false }))).toMatch(/are for --key/);
  });
});
