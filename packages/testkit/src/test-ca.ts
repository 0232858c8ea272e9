import { readFile } from "node:fs/promises";
import { selfSignedCert, signedLeafCert } from "./openssl.js";
import { subjectAltNames } from "./subject-alt-names.js";
import { tempDir } from "./temp-dir.js";

export interface IssuedCert {
  certPem: string;
  keyPem: string;
  certPath: string;
  keyPath: string;
}

export interface TestCa {
  /** The CA certificate: give it to clients as their trust anchor (`ca`, `NODE_EXTRA_CA_CERTS`, `SSL_CERT_FILE`). */
  certPem: string;
  certPath: string;
  dir: string;
  /** A server certificate valid for 127.0.0.1, localhost and the names given. */
  issue(hostnames: string[]): Promise<IssuedCert>;
  remove(): Promise<void>;
}

/** A throwaway certificate authority made with openssl in its own temp dir. */
export async function createTestCa(): Promise<TestCa> {
  const dir = await tempDir("ca-");
  const ca = await selfSignedCert(dir.path, "ca", "/CN=pkg test CA", [
    "basicConstraints=critical,CA:TRUE",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  const certPem = await readFile(ca.certPath, "utf8");
  let issued = 0;
  return {
    certPem,
    certPath: ca.certPath,
    dir: dir.path,
    async issue(hostnames) {
      issued += 1;
      const leaf = await signedLeafCert(
        dir.path,
        `leaf-${issued}`,
        `/CN=${hostnames[0] ?? "localhost"}`,
        [
          "basicConstraints=critical,CA:FALSE",
          "keyUsage=critical,digitalSignature,keyEncipherment",
          "extendedKeyUsage=serverAuth",
          `subjectAltName=${subjectAltNames(hostnames)}`,
        ],
        ca,
      );
      const [leafPem, keyPem] = await Promise.all([
        readFile(leaf.certPath, "utf8"),
        readFile(leaf.keyPath, "utf8"),
      ]);
      return { certPem: leafPem, keyPem, ...leaf };
    },
    remove: () => dir.remove(),
  };
}
