import { Command } from "@commander-js/extra-typings";
import { ExitCode, PkgError, parseFormat, printJson, stderrLogger, usageError } from "@pkg/common";
import { parsePlatformKey } from "../../platform/index.js";
import { signHelp, signModeOf } from "../sign-options.js";
import { layoutOptionHelp, openReference } from "../target.js";

export function signCommand() {
  return new Command("sign")
    .description(
      "Sign a published package the way cosign signs images: its image index and every platform manifest (or one platform's), stored as OCI referrers (the sha256-<hex> fallback tag on registries without the referrers API).",
    )
    .argument("<reference>", "REGISTRY/REPOSITORY:TAG (or @sha256:...); with --layout, REPOSITORY:TAG")
    .option("-p, --platform <key>", "sign only this platform's manifest, e.g. linux/amd64")
    .option("--key <ref>", signHelp.key)
    .option("--ca-url <url>", signHelp.caUrl)
    .option("--log-url <url>", signHelp.logUrl)
    .option("--log-upload", signHelp.logUpload)
    .option("--no-log-upload", signHelp.noLogUpload)
    .option("--layout <dir>", layoutOptionHelp)
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
Key mode (--key): the key comes from a file or an environment variable, never the command line;
an encrypted key is decrypted with PKG_KEY_PASSWORD. Nothing goes to a transparency log unless
--log-upload is given. Keyless mode (no --key): an OIDC identity token from PKG_IDENTITY_TOKEN (or
the CI's own), a certificate from --ca-url and an entry in --log-url.
What cosign verifies: cosign verify --key cosign.pub --experimental-oci11 [--insecure-ignore-tlog] REF
Exit codes: 0 signed; 64 usage; 65 bad key; 69/75/80 registry or signing service; 78 a key,
passphrase or identity token that resolves to nothing; 82 a key-management-service key.`,
    )
    .action(async (ref, options) => {
      const log = stderrLogger({ quiet: options.format === "json" });
      const mode = signModeOf(options);
      const { target, reference } = openReference(ref, options.layout);
      const named = reference.digest ?? reference.tag;
      if (named === undefined) throw usageError(`${ref}: name a tag or a digest`);
      const platform = options.platform === undefined ? undefined : parsePlatformKey(options.platform);
      const sign = await import("../../sign/index.js");
      const signer = await sign.openSigner(mode, process.env);
      const subjects = await sign.referenceSubjects(target, named, platform);
      const outcomes = await sign.signSubjects(target, subjects, signer, { log });
      if (options.format === "json") printJson({ signer: signer.description, subjects: outcomes });
      const failed = outcomes.filter((o) => o.status === "failed");
      const first = failed[0];
      if (first?.error) {
        throw new PkgError(
          first.error.exit_code === ExitCode.Ok ? ExitCode.Failed : first.error.exit_code,
          `${failed.length} of ${outcomes.length} signature${outcomes.length === 1 ? "" : "s"} failed: ${first.label}: ${first.error.message}`,
        );
      }
      if (options.format !== "json")
        log.info(
          `signed ${outcomes.length} manifest${outcomes.length === 1 ? "" : "s"} of ${target.displayName}:${named}`,
        );
    });
}
