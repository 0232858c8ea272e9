import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runCommand } from "./run-command.js";

const OPENSSL = "/usr/bin/openssl";
/** Test certificates live for a day: long enough for any run, short enough never to matter if leaked. */
const DAYS = "1";
const EC_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** A random positive 63-bit serial, so concurrent issues never share one (no serial file to race on). */
function randomSerial(): string {
  return (randomBytes(8).readBigUInt64BE() >> 1n).toString();
}

export interface KeyPairFiles {
  certPath: string;
  keyPath: string;
}

/** A self-signed certificate and its PKCS#8 key, `<dir>/<name>.crt` and `<dir>/<name>.key`. */
export async function selfSignedCert(
  dir: string,
  name: string,
  subject: string,
  extensions: string[],
): Promise<KeyPairFiles> {
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  const addext = extensions.flatMap((extension) => ["-addext", extension]);
  await runCommand(OPENSSL, [
    "req",
    "-x509",
    ...EC_KEY,
    "-keyout",
    keyPath,
    "-out",
    certPath,
    "-days",
    DAYS,
    "-subj",
    subject,
    ...addext,
  ]);
  return { certPath, keyPath };
}

/** A leaf certificate for `subject`, signed by the given CA, with the extensions given (openssl config syntax). */
export async function signedLeafCert(
  dir: string,
  name: string,
  subject: string,
  extensions: string[],
  ca: KeyPairFiles,
): Promise<KeyPairFiles> {
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  const csrPath = join(dir, `${name}.csr`);
  const extPath = join(dir, `${name}.ext`);
  await writeFile(extPath, `${extensions.join("\n")}\n`);
  await runCommand(OPENSSL, [
    "req",
    "-new",
    ...EC_KEY,
    "-keyout",
    keyPath,
    "-out",
    csrPath,
    "-subj",
    subject,
  ]);
  await runCommand(OPENSSL, [
    "x509",
    "-req",
    "-in",
    csrPath,
    "-CA",
    ca.certPath,
    "-CAkey",
    ca.keyPath,
    "-set_serial",
    randomSerial(),
    "-days",
    DAYS,
    "-extfile",
    extPath,
    "-out",
    certPath,
  ]);
  return { certPath, keyPath };
}
