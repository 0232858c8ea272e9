import { createHash, createPublicKey, generateKeyPairSync, X509Certificate } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startHttpServer, type TestServer } from "./http-server.js";
import { type TempDir, tempDir } from "./temp-dir.js";

/** Loopback Fulcio-protocol certificate authority and Rekor-protocol transparency log, and their trust root. */
export interface SigstoreServices {
  /** The certificate authority's base URL (`POST /api/v2/signingCert`). */
  caUrl: string;
  /** The transparency log's base URL (`POST /api/v1/log/entries`). */
  logUrl: string;
  /** A Sigstore trusted root JSON file naming this CA, its CT log and the transparency log. */
  trustedRootPath: string;
  /** The transparency log's public key, PEM (what cosign takes as SIGSTORE_REKOR_PUBLIC_KEY). */
  logPublicKeyPath: string;
  /** The CA's root certificate, PEM (cosign's SIGSTORE_ROOT_FILE). */
  caRootPath: string;
  /** The CA's certificate-transparency log key, PEM (cosign's SIGSTORE_CT_LOG_PUBLIC_KEY_FILE). */
  ctLogPublicKeyPath: string;
  ca: TestServer;
  log: TestServer;
  /** An OIDC identity token (unsigned JWT: the test CA reads its claims) for `subject` from `issuer`. */
  identityToken(subject: string, issuer: string): string;
  stop(): Promise<void>;
}

type Handler = {
  path: string;
  fn: (body: string) => Promise<{ statusCode: number; response: unknown; contentType?: string }>;
};

/** A loopback server answering the handler's one POST path; `handler` is asked per request. */
async function serve(handlerOf: () => Handler | undefined): Promise<TestServer> {
  return startHttpServer(async (req, res) => {
    const handler = handlerOf();
    if (!handler) throw new Error("service not ready");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || req.url !== handler.path) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found\n");
      return;
    }
    const answer = await handler.fn(Buffer.concat(chunks).toString("utf8"));
    res.writeHead(answer.statusCode, { "content-type": answer.contentType ?? "text/plain" });
    res.end(answer.response as string | Buffer);
  });
}

const b64 = (bytes: ArrayBufferView | Buffer) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
const b64url = (text: string) => Buffer.from(text).toString("base64url");

/**
 * Starts the sigstore mock services as real HTTP servers on loopback (the `@sigstore/mock`
 * handlers answer the real protocols: certificates with an embedded SCT, log entries with a signed
 * entry timestamp and an inclusion proof) and writes the trusted root verifiers need.
 */
export async function startSigstoreServices(): Promise<SigstoreServices> {
  // loaded here, from the modules that hold them: the package's entry also loads nock, which would
  // patch node:http in every test process that imports the testkit
  const { fulcioHandler, initializeCA, initializeCTLog } = await import(
    "@sigstore/mock/dist/fulcio/index.js"
  );
  const { initializeTLog, rekorHandler } = await import("@sigstore/mock/dist/rekor/index.js");
  const dir: TempDir = await tempDir("sigstore-");
  const caKeys = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const logKeys = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ctlog = await initializeCTLog(caKeys);
  const ca = await initializeCA(caKeys, ctlog);
  const caHandler = fulcioHandler(ca) as unknown as Handler;
  const caServer = await serve(() => caHandler);
  let logServer: TestServer | undefined;
  try {
    // the log names its own URL in its checkpoints: the handler is made once the port is known
    let handler: Handler | undefined;
    logServer = await serve(() => handler);
    const tlog = await initializeTLog(logServer.url, logKeys);
    handler = rekorHandler(tlog) as unknown as Handler;
    const start = new Date(Date.now() - 3600_000).toISOString();
    const logKeyDer = Buffer.from(tlog.publicKey);
    const trustedRoot = {
      mediaType: "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
      tlogs: [
        {
          baseUrl: logServer.url,
          hashAlgorithm: "SHA2_256",
          publicKey: {
            rawBytes: logKeyDer.toString("base64"),
            keyDetails: "PKIX_ECDSA_P256_SHA_256",
            validFor: { start },
          },
          logId: { keyId: createHash("sha256").update(logKeyDer).digest("base64") },
        },
      ],
      certificateAuthorities: [
        {
          subject: { organization: "pkg-testkit", commonName: "pkg test CA" },
          uri: caServer.url,
          certChain: { certificates: [{ rawBytes: b64(ca.rootCertificate) }] },
          validFor: { start },
        },
      ],
      ctlogs: [
        {
          baseUrl: caServer.url,
          hashAlgorithm: "SHA2_256",
          publicKey: {
            rawBytes: Buffer.from(ctlog.publicKey).toString("base64"),
            keyDetails: "PKIX_ECDSA_P256_SHA_256",
            validFor: { start },
          },
          logId: { keyId: b64(ctlog.logID) },
        },
      ],
      timestampAuthorities: [],
    };
    const trustedRootPath = join(dir.path, "trusted_root.json");
    await writeFile(trustedRootPath, `${JSON.stringify(trustedRoot, null, 2)}\n`);
    const logPublicKeyPath = join(dir.path, "log.pub");
    await writeFile(logPublicKeyPath, logKeys.publicKey.export({ type: "spki", format: "pem" }));
    const caRootPath = join(dir.path, "ca-root.pem");
    await writeFile(
      caRootPath,
      new X509Certificate(Buffer.from(b64(ca.rootCertificate), "base64")).toString(),
    );
    const ctLogPublicKeyPath = join(dir.path, "ctlog.pub");
    await writeFile(
      ctLogPublicKeyPath,
      createPublicKey({ key: Buffer.from(ctlog.publicKey), format: "der", type: "spki" }).export({
        type: "spki",
        format: "pem",
      }),
    );
    const log = logServer;
    return {
      caUrl: caServer.url,
      logUrl: log.url,
      trustedRootPath,
      logPublicKeyPath,
      caRootPath,
      ctLogPublicKeyPath,
      ca: caServer,
      log,
      identityToken(subject, issuer) {
        const now = Math.floor(Date.now() / 1000);
        const claims = { iss: issuer, sub: subject, aud: "sigstore", iat: now, exp: now + 600 };
        return `${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${b64url(JSON.stringify(claims))}.`;
      },
      async stop() {
        await caServer.stop();
        await log.stop();
        await dir.remove();
      },
    };
  } catch (error) {
    await caServer.stop();
    await logServer?.stop();
    await dir.remove();
    throw error;
  }
}
