import { Command } from "@commander-js/extra-typings";
import { ExitCode, PkgError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { describeAnnounce } from "../../../pipeline/announce.js";
import { patchVersions } from "../../../pipeline/patch/patch.js";
import { repoRootOption } from "../../shared-options.js";
import { loadRunnableSpec, openSpecTarget } from "../../spec-target.js";

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function pipelinePatchCommand() {
  return new Command("patch")
    .description(
      "Republish the metadata the spec now gives over published versions, against their published layers (no download, no layer upload), and re-point their tags.",
    )
    .option("--spec <file>", "the spec file", "mirror.yml")
    .option("--metadata-only", "required: the only mode (metadata republished against the published layers)")
    .option(
      "--version <version>",
      "a published version (1.2.3, <variant>-1.2.3: all its builds) or one build tag verbatim; repeatable",
      collect,
    )
    .option("--min-version <version>", "every published version from this one (inclusive)")
    .option("--max-version <version>", "every published version below this one (exclusive)")
    .option("--layout <dir>", "patch an OCI image layout under DIR instead of the spec's registry")
    .addOption(repoRootOption())
    .option("--format <format>", "output: text or json (the patch report)", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
Selection: --version, --min-version and --max-version combine as a union; with none, every
published version of the spec's variants. Per version and platform the spec still lists, the
published metadata is compared as pipeline plan compares it (metadata-drift): binaries a
bin_scan filled and dependency pins of a tag-only dependency are taken as published. A drifted
platform gets a config-sized blob and its manifest again (same layers), then every tag of the
version that held the old manifest (build tags, exact and rolling tags) is re-pointed; a current
one is left alone, so a second patch does nothing. One attempt per platform within 3600 s, never
retried. With an announce block the re-pointed tags are announced afterwards. Refused (exit 65,
after the rest is patched): a dependency the spec adds or whose tag it moves; delete the
version's tags and mirror it again. Platforms the spec no longer lists are left alone.
Exit codes: 0 patched or current; 1 a republish or the announce failed; 64 usage (no
--metadata-only, a rolling alias or an unknown version named, a pylock/pypi source); 65 bad spec
or a refusal; 69/75/80 registry failures while reading.`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      if (!options.metadataOnly) {
        throw new PkgError(
          ExitCode.Usage,
          "pipeline patch needs --metadata-only, its only mode: the metadata republished against the published layers",
        );
      }
      const { loaded, spec } = await loadRunnableSpec(options.spec, options.repoRoot, log);
      const env = process.env;
      const http = createHttpClient({ env, userAgent: "pkg-mirror" });
      try {
        const report = await patchVersions({
          spec,
          specDir: loaded.specDir,
          target: openSpecTarget(spec, { layout: options.layout, env, publishing: true }),
          selection: {
            versions: options.version ?? [],
            ...(options.minVersion === undefined ? {} : { min: options.minVersion }),
            ...(options.maxVersion === undefined ? {} : { max: options.maxVersion }),
          },
          env,
          http,
          log,
        });
        if (options.format === "json") printJson(report);
        const { patched, current, refused, failed } = report.counts;
        log.info(
          `${report.target}: ${patched} patched, ${current} current, ${refused} refused, ${failed} failed`,
        );
        const announce = report.announce;
        if (announce) {
          const line = describeAnnounce(announce, spec.announce);
          log.info(announce.status === "skipped_no_credential" ? `notice: ${line}` : line);
        }
        if (failed > 0 || announce?.status === "failed") {
          const what = [
            ...(failed > 0 ? [`${failed} platform${failed === 1 ? "" : "s"} failed to republish`] : []),
            ...(announce?.status === "failed" ? ["the announce failed"] : []),
          ];
          throw new PkgError(ExitCode.Failed, `patch of ${report.target}: ${what.join("; ")}`);
        }
        if (refused > 0)
          throw new PkgError(
            ExitCode.Data,
            `${refused} platform${refused === 1 ? "" : "s"} refused: delete the version's tags and mirror it again`,
          );
      } finally {
        await http.close();
      }
    });
}
