import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger, usageError } from "@pkg/common";
import { readOnly } from "@pkg/oci";
import { parsePlatformKey } from "../../platform/index.js";
import { trustedRootHelp, verifyPolicyOf } from "../sign-options.js";
import { layoutOptionHelp, openReference } from "../target.js";

export function verifyCommand() {
  return new Command("verify")
    .description(
      "Check a package's signatures: its image index and every platform manifest (or one platform's) must each carry a signature that holds. Exit 0 only when every check holds; otherwise one line says which failed.",
    )
    .argument("<reference>", "REGISTRY/REPOSITORY:TAG (or @sha256:...); with --layout, REPOSITORY:TAG")
    .option("-p, --platform <key>", "verify only this platform's manifest, e.g. linux/amd64")
    .option("--key <ref>", "the signer's public key (PEM): PATH, file://PATH or env://NAME")
    .option(
      "--certificate-identity <id>",
      "keyless: the exact identity (certificate subject alternative name)",
    )
    .option("--certificate-oidc-issuer <url>", "keyless: the exact OIDC issuer of that identity")
    .option("--trusted-root <file>", trustedRootHelp)
    .option("--layout <dir>", layoutOptionHelp)
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
With --key, a signature verifies with the key and its signed payload names the manifest. Keyless,
the certificate chains to the trusted certificate authority (with its certificate-transparency
proof), the transparency log's entry verifies, the signature verifies with the certificate, and
its identity and issuer are exactly the ones named. Signatures are found as OCI referrers (or the
sha256-<hex> fallback tag) and at cosign's sha256-<hex>.sig tag, so cosign's signatures verify too.
Exit codes: 0 every check holds; 1 a check failed; 64 usage; 65 bad key or trusted root;
69/75/80 registry.`,
    )
    .action(async (ref, options) => {
      const log = stderrLogger({ quiet: options.format === "json" });
      const policy = await verifyPolicyOf(
        {
          key: options.key,
          identity: options.certificateIdentity,
          issuer: options.certificateOidcIssuer,
          trustedRoot: options.trustedRoot,
        },
        { key: "--key", identity: "--certificate-identity", issuer: "--certificate-oidc-issuer" },
        process.env,
      );
      const { target, reference } = openReference(ref, options.layout);
      const named = reference.digest ?? reference.tag;
      if (named === undefined) throw usageError(`${ref}: name a tag or a digest`);
      const platform = options.platform === undefined ? undefined : parsePlatformKey(options.platform);
      const sign = await import("../../sign/index.js");
      const reader = readOnly(target);
      const subjects = await sign.referenceSubjects(reader, named, platform);
      const verified = [];
      for (const subject of subjects) {
        const result = await sign.verifySubject(reader, subject, policy);
        verified.push(result);
        log.info(`verified ${result.label} ${result.subject.slice(0, 19)} (${result.source})`);
      }
      if (options.format === "json") printJson({ verified });
    });
}
