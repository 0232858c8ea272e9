import { readdir, readFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";

const pemBlock = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every PEM certificate in a text (a bundle may hold many; other content is ignored). */
export function pemCertificates(text: string): string[] {
  return text.match(pemBlock) ?? [];
}

async function fromFile(path: string, variable: string): Promise<string[]> {
  try {
    return pemCertificates(await readFile(path, "utf8"));
  } catch (error) {
    throw new PkgError(ExitCode.Config, `${variable}=${path}: cannot read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

async function fromDirectory(path: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(path);
  } catch (error) {
    throw new PkgError(ExitCode.Config, `SSL_CERT_DIR=${path}: cannot read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const certificates: string[] = [];
  for (const name of names.sort()) {
    try {
      certificates.push(...pemCertificates(await readFile(join(path, name), "utf8")));
    } catch {
      // subdirectories and unreadable entries are not certificates
    }
  }
  return certificates;
}

/**
 * Extra CAs to trust beside Node's roots, from `PKG_EXTRA_CA_CERTS` (file), `SSL_CERT_FILE`
 * (bundle), `SSL_CERT_DIR` (directories of PEM files, `:`-separated) and `NODE_EXTRA_CA_CERTS` (which Node drops
 * once a `ca` list is given explicitly).
 */
export async function extraCasFromEnv(env: NodeJS.ProcessEnv): Promise<string[]> {
  const found: string[] = [];
  for (const variable of ["PKG_EXTRA_CA_CERTS", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS"] as const) {
    const path = env[variable];
    if (path) found.push(...(await fromFile(path, variable)));
  }
  for (const dir of (env.SSL_CERT_DIR ?? "").split(delimiter)) {
    if (dir) found.push(...(await fromDirectory(dir)));
  }
  return found;
}
