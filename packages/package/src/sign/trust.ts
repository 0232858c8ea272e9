import { readFile } from "node:fs/promises";
import { ExitCode, PkgError } from "@pkg/common";
import { TrustedRoot } from "@sigstore/protobuf-specs";
import { getTrustedRoot } from "@sigstore/tuf";
import { type TrustMaterial, toTrustMaterial } from "@sigstore/verify";

/** The variable naming a Sigstore trusted root file (certificate authorities, logs, their keys). */
export const TRUSTED_ROOT_VARIABLE = "PKG_SIGSTORE_TRUSTED_ROOT";

/**
 * The trust material keyless verification checks against: a trusted root JSON file (`--trusted-root`,
 * else `PKG_SIGSTORE_TRUSTED_ROOT`), else the public Sigstore instance's, through its TUF repository.
 */
export async function loadTrustMaterial(
  path: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<TrustMaterial> {
  const file = path ?? (env[TRUSTED_ROOT_VARIABLE] || undefined);
  if (file === undefined) {
    try {
      return toTrustMaterial(await getTrustedRoot());
    } catch (error) {
      throw new PkgError(
        ExitCode.Unavailable,
        `cannot fetch the public Sigstore trusted root (${(error as Error).message}); name one with --trusted-root`,
      );
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PkgError(
      code === "ENOENT" ? ExitCode.Data : ExitCode.Data,
      `trusted root ${file}: ${code === "ENOENT" ? "no such file" : "not a JSON document"}`,
    );
  }
  try {
    return toTrustMaterial(TrustedRoot.fromJSON(json));
  } catch (error) {
    throw new PkgError(ExitCode.Data, `trusted root ${file}: ${(error as Error).message}`);
  }
}
