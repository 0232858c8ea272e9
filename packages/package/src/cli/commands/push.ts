import { Command } from "@commander-js/extra-typings";
import {
  ExitCode,
  type Logger,
  PkgError,
  parseFormat,
  printJson,
  stderrLogger,
  usageError,
} from "@pkg/common";
import { MediaType, type Target } from "@pkg/oci";
import { readMetadataFile } from "../../metadata/files.js";
import { defaultMetadata } from "../../metadata/index.js";
import { parsePlatformKey } from "../../platform/index.js";
import { parseAnnotations } from "../../push/annotations.js";
import { parseLayerArg, readLocalLayer } from "../../push/layer-args.js";
import { cascadePublication } from "../../push/publication.js";
import { type PushReport, pushPackage } from "../../push/push.js";
import type { PayloadSigner, SignOutcome, Subject } from "../../sign/index.js";
import { signHelp, signModeOf } from "../sign-options.js";
import { layoutOptionHelp, openReference } from "../target.js";

const collect = (value: string, previous: string[]) => [...previous, value];

export function pushCommand() {
  return new Command("push")
    .description(
      "Publish one platform of a package: upload its layers and metadata, and merge it into the tag's image index.",
    )
    .argument(
      "<layers...>",
      "bundle files (*.tar.zst, *.tar.xz); FILE:from=REPOSITORY tries a cross-repository mount first",
    )
    .requiredOption(
      "-i, --identifier <reference>",
      "REGISTRY/REPOSITORY:TAG to publish, e.g. ghcr.io/acme/tool:1.2.3_20250101120000; with --layout, REPOSITORY:TAG (acme/tool:1.2.3)",
    )
    .requiredOption(
      "-p, --platform <key>",
      "platform key OS/ARCH[/VARIANT][+libc.glibc|+libc.musl], e.g. linux/amd64",
    )
    .option("-m, --metadata <file>", "metadata.json to publish as the package config")
    .option(
      "--cascade",
      "also move the rolling tags X.Y.Z, X.Y, X and latest where no newer version holds this platform",
    )
    .option(
      "-a, --annotation <key=value>",
      "annotation for the image index of every tag written (repeatable)",
      collect,
      [],
    )
    .option(
      "--sign",
      "sign the platform manifest and the image index of every tag written (see package sign)",
    )
    .option("--key <ref>", signHelp.key)
    .option("--ca-url <url>", signHelp.caUrl)
    .option("--log-url <url>", signHelp.logUrl)
    .option("--log-upload", signHelp.logUpload)
    .option("--no-log-upload", signHelp.noLogUpload)
    .option("--layout <dir>", layoutOptionHelp)
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .action(async (layerArgs, options) => {
      const log = stderrLogger({ quiet: options.format === "json" });
      const { target, reference } = openReference(options.identifier, options.layout);
      if (reference.tag === undefined || reference.digest !== undefined) {
        const form = options.layout === undefined ? "REGISTRY/REPOSITORY:TAG" : "REPOSITORY:TAG";
        throw usageError(`-i ${options.identifier}: name a tag (${form}), not a digest`);
      }
      // a reserved tag (__pkg.*) or one the cascade cannot read is refused before a layer is read
      cascadePublication(reference.tag, options.cascade === true);
      const platform = parsePlatformKey(options.platform);
      const signing = options.sign === true ? signModeOf(options) : undefined;
      if (
        !signing &&
        [options.key, options.caUrl, options.logUrl, options.logUpload].some((v) => v !== undefined)
      )
        throw usageError("--key, --ca-url, --log-url and --log-upload go with --sign");
      // the key, its passphrase and the identity token are resolved before anything is uploaded
      const signer =
        signing && (await (await import("../../sign/index.js")).openSigner(signing, process.env));
      const annotations = parseAnnotations(options.annotation);
      const layers = [];
      for (const arg of layerArgs) layers.push(await readLocalLayer(parseLayerArg(arg)));
      const metadata =
        options.metadata === undefined ? defaultMetadata() : await readMetadataFile(options.metadata);
      const report = await pushPackage({
        target,
        tag: reference.tag,
        platform,
        layers,
        metadata,
        cascade: options.cascade === true,
        annotations,
        log,
      });
      const signed = signer ? await signPushed(target, report, signer, log) : undefined;
      if (options.format === "json") printJson(signed ? { ...report, signatures: signed } : report);
      else {
        const { mounted, uploaded, verified } = report.layers;
        log.info(
          `pushed ${report.repository}:${reference.tag} (${report.platform}) ${report.indexDigest}; tags: ${report.tags.join(", ")}; layers: ${uploaded} uploaded, ${mounted} mounted, ${verified} already present`,
        );
      }
    });
}

/**
 * Signs what a push wrote: the platform manifest, then the image index each written tag now
 * holds. The push stands when signing fails; the failure is the command's exit (sign again with
 * `pkg package sign`).
 */
async function signPushed(
  target: Target,
  report: PushReport,
  signer: PayloadSigner,
  log: Logger,
): Promise<SignOutcome[]> {
  const { signSubjects } = await import("../../sign/index.js");
  const subjects: Subject[] = [
    {
      descriptor: {
        mediaType: MediaType.ImageManifest,
        digest: report.manifestDigest,
        size: report.entry.size,
      },
      label: `${report.repository}@${report.manifestDigest.slice(0, 19)} (${report.platform})`,
      platform: report.platform,
    },
  ];
  for (const tag of report.tags) {
    const stored = await target.fetchManifest(tag);
    if (stored)
      subjects.push({ descriptor: stored.descriptor, label: `${report.repository}:${tag} (index)` });
  }
  const outcomes = await signSubjects(target, subjects, signer, { log });
  const failed = outcomes.find((o) => o.status === "failed");
  if (failed?.error) {
    throw new PkgError(
      failed.error.exit_code === ExitCode.Ok ? ExitCode.Failed : failed.error.exit_code,
      `pushed ${report.repository}:${report.tags[0] ?? ""}, but signing failed: ${failed.label}: ${failed.error.message}`,
    );
  }
  return outcomes;
}
