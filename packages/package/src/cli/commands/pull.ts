import { Command, Option } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger } from "@pkg/common";
import { detectHostPlatform, hostFromPlatformKey } from "../../platform/host.js";
import { manifestVerifier, trustedRootHelp, verifyRefusalHelp } from "../sign-options.js";
import { layoutOptionHelp, openReference } from "../target.js";

export function pullCommand() {
  return new Command("pull")
    .description("Fetch a package for one platform, verify every digest and extract it into a new directory.")
    .argument(
      "<reference>",
      "REGISTRY/REPOSITORY:TAG or REGISTRY/REPOSITORY@sha256:...; with --layout, REPOSITORY:TAG or REPOSITORY@sha256:...",
    )
    .requiredOption(
      "-o, --output <dir>",
      "directory to create: OUT/content holds the package, OUT/metadata.json its metadata",
    )
    .option(
      "-p, --platform <key>",
      "platform key to select (default: this host); without +libc it asks for the host's libc, e.g. linux/arm64, linux/arm64+libc.musl",
    )
    .addOption(
      new Option(
        "--libc <flavor>",
        "host libc: an entry without os.features is taken first, else the one declaring this libc (default: detected; a key's +libc asks for exactly that libc)",
      ).choices(["glibc", "musl"] as const),
    )
    .option("--verify-key <ref>", verifyRefusalHelp.key)
    .option("--verify-identity <id>", verifyRefusalHelp.identity)
    .option("--verify-issuer <url>", verifyRefusalHelp.issuer)
    .option("--trusted-root <file>", trustedRootHelp)
    .option("--layout <dir>", layoutOptionHelp)
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .action(async (ref, options) => {
      const log = stderrLogger({ quiet: options.format === "json" });
      const verify = await manifestVerifier(options, process.env);
      const { target, reference } = openReference(ref, options.layout);
      const host =
        options.platform === undefined
          ? detectHostPlatform(options.libc)
          : hostFromPlatformKey(options.platform, options.libc);
      const { pullPackage } = await import("../../pull/pull.js");
      const report = await pullPackage({
        target,
        reference: reference.digest ?? reference.tag ?? "latest",
        host,
        outDir: options.output,
        log,
        ...(verify
          ? { verifyManifest: (digest: string, label: string) => verify(target, digest, label) }
          : {}),
      });
      if (options.format === "json") printJson(report);
      else
        log.info(
          `pulled ${report.repository}@${report.manifestDigest} (${report.platform}) into ${report.outDir}`,
        );
    });
}
