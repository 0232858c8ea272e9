import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger, usageError } from "@pkg/common";
import { readMetadataFile } from "../../metadata/files.js";
import { defaultMetadata } from "../../metadata/index.js";
import { parsePlatformKey } from "../../platform/index.js";
import { parseAnnotations } from "../../push/annotations.js";
import { parseLayerArg, readLocalLayer } from "../../push/layer-args.js";
import { cascadePublication } from "../../push/publication.js";
import { pushPackage } from "../../push/push.js";
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
      if (options.format === "json") printJson(report);
      else {
        const { mounted, uploaded, verified } = report.layers;
        log.info(
          `pushed ${report.repository}:${reference.tag} (${report.platform}) ${report.indexDigest}; tags: ${report.tags.join(", ")}; layers: ${uploaded} uploaded, ${mounted} mounted, ${verified} already present`,
        );
      }
    });
}
