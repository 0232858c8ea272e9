import { Command } from "@commander-js/extra-typings";
import { type Logger, parseFormat, printJson, stderrLogger, usageError } from "@pkg/common";
import type { Owner } from "@pkg/index";
import { createHttpClient, type PooledHttpClient } from "@pkg/net";
import { announce } from "../../announce/announce.js";
import type { AnnounceDestination } from "../../announce/destination.js";
import { createForgeDestination, resolveForgeTarget } from "../../announce/forge/index.js";
import { LocalDirectoryDestination } from "../../announce/local-destination.js";
import {
  type AnnounceRequest,
  checkLabel,
  checkPackagePath,
  parseOwner,
  parseTagList,
  readTagsFile,
  repositoryUri,
  type TagMode,
} from "../../announce/request.js";

const collectOwner = (value: string, previous: Owner[] | undefined) => [
  ...(previous ?? []),
  parseOwner(value),
];

interface ModeOptions {
  tags?: string;
  tagsFile?: string;
  fromRegistry?: boolean;
  refresh?: boolean;
}

/** Exactly one of --tags, --tags-file, --from-registry, --refresh (exit 64 otherwise). */
async function tagMode(options: ModeOptions): Promise<TagMode> {
  const given = [
    options.tags !== undefined && "--tags",
    options.tagsFile !== undefined && "--tags-file",
    options.fromRegistry === true && "--from-registry",
    options.refresh === true && "--refresh",
  ].filter((x): x is string => typeof x === "string");
  if (given.length !== 1) {
    throw usageError(
      given.length === 0
        ? "say which tags: one of --tags T,..., --tags-file F, --from-registry, --refresh"
        : `${given.join(" and ")} cannot be combined; give one`,
    );
  }
  if (options.tags !== undefined) {
    const tags = parseTagList(options.tags, "--tags");
    if (tags.length === 0) throw usageError("--tags: no tag given");
    return { kind: "tags", tags };
  }
  if (options.tagsFile !== undefined) return { kind: "add", tags: await readTagsFile(options.tagsFile) };
  return options.fromRegistry === true ? { kind: "from-registry" } : { kind: "refresh" };
}

/**
 * Where the announce goes: the destination options, read here and nowhere else. `--out DIR` is a
 * local index directory (no credential). The forge destinations (`--index-repo`, `--fork`,
 * `--forge`, `--transport`) join this interface, the option block marked below, and this function.
 */
interface DestinationOptions {
  out?: string;
  indexRepo?: string;
  fork?: string;
  forge?: string;
  transport?: string;
}

function openDestination(
  options: DestinationOptions,
  pkg: string,
  log: Logger,
  http: () => PooledHttpClient,
): AnnounceDestination {
  const forgeFlags = (["indexRepo", "fork", "forge", "transport"] as const).filter(
    (k) => options[k] !== undefined,
  );
  if (options.out !== undefined) {
    if (forgeFlags.length > 0)
      throw usageError(
        "--out writes a local directory; it cannot be combined with --index-repo, --fork, --forge or --transport",
      );
    return new LocalDirectoryDestination(options.out);
  }
  if (options.indexRepo === undefined) {
    throw usageError(
      forgeFlags.length > 0
        ? "name the index repository with --index-repo [HOST/]NAMESPACE/PROJECT"
        : "say where to announce: --out DIR (a local index directory) or --index-repo [HOST/]NAMESPACE/PROJECT",
    );
  }
  const target = resolveForgeTarget({
    indexRepo: options.indexRepo,
    fork: options.fork,
    forge: options.forge,
    transport: options.transport,
  });
  return createForgeDestination({ target, pkg, env: process.env, http: http(), log });
}

export function announceCommand() {
  return (
    new Command("announce")
      .description(
        "Record a package's tags (each tag's image index, verbatim) and its description (__pkg.desc) in a package index. Yank markers and every human-set field of the package's root are kept; reserved tags (__pkg.*, digest-shaped) are never listed. Running it again with the same inputs changes nothing.",
      )
      .requiredOption("--package <ns/pkg>", "the index package, NAMESPACE/PACKAGE")
      .option("--tags <tags>", "exactly these tags (comma separated): they replace the curated set")
      .option("--tags-file <file>", "add the tags in this file (comma or newline separated)")
      .option("--from-registry", "add every tag the repository holds")
      .option("--refresh", "look at the committed tags again (a moved tag is re-observed); adds none")
      .option(
        "--repository <registry/repo>",
        "the package's repository, REGISTRY/REPOSITORY, where the index does not name it yet",
      )
      .option(
        "--layout <dir>",
        "read the tags and the description from the OCI image layout DIR/<repository> instead of the registry",
      )
      .option(
        "--label <name>",
        "a new package's name prefix, the index's own name (default: that of its packages)",
      )
      .option(
        "--owner <login:id>",
        "owner of a new package (repeatable): GitHub login and numeric id",
        collectOwner,
      )
      // destination options (see openDestination)
      .option(
        "--out <dir>",
        "write to this local index directory (created when missing): the package's root, its new objects, config.json and c/index.json",
      )
      .option(
        "--index-repo <[host/]ns/project>",
        "announce to this forge index repository: one commit on the package's branch and a pull or merge request, opened or reused",
      )
      .option(
        "--fork <[host/]ns/project>",
        "push the branch to this fork (made when missing) and open the request from it",
      )
      .option(
        "--forge <forge>",
        "forgeone or forgetwo; inferred for github.com and gitlab.com, required for a self-hosted host",
      )
      .option(
        "--transport <transport>",
        "api (default; token PKG_ANNOUNCE_TOKEN) or git (forgetwo only, no --fork: one push carrying the merge-request push options)",
      )
      .option("--format <format>", "output: text or json", parseFormat, "text" as const)
      .addHelpText(
        "after",
        `
Forge credentials: PKG_ANNOUNCE_TOKEN (api transport; sent to the forge's API host only). The git
transport takes PKG_ANNOUNCE_GIT_TOKEN (a deploy token; PKG_ANNOUNCE_GIT_USER its user name), then
PKG_AUTH_<HOST>_* or netrc, then the CI job's CI_JOB_TOKEN on that host, handed to git by a
credential helper for that host only.
Exit codes: 0 ok (updated or unchanged), 64 usage, 65 bad data (a tag that does not resolve, a
document of the index that breaks its schema), 69 registry or forge unreachable, 75 forge
rate-limited or a race for the branch lost on every retry, 77 publisher not allowlisted, 80
authentication rejected or no push access, 82 forge capability unavailable.`,
      )
      .action(async (options) => {
        const log = stderrLogger({ quiet: options.format === "json" });
        const pkgPath = checkPackagePath(options.package);
        const mode = await tagMode(options);
        let client: PooledHttpClient | undefined;
        const destination = openDestination(options, pkgPath, log, () => {
          client ??= createHttpClient();
          return client;
        });
        const request: AnnounceRequest = {
          package: pkgPath,
          mode,
          ...(options.repository === undefined ? {} : { repository: repositoryUri(options.repository) }),
          ...(options.layout === undefined ? {} : { layout: options.layout }),
          ...(options.label === undefined ? {} : { label: checkLabel(options.label) }),
          ...(options.owner === undefined ? {} : { owners: options.owner }),
        };
        const report = await announce(request, destination).finally(() => client?.close());
        if (options.format === "json") {
          printJson(report);
          return;
        }
        for (const tag of report.reservedTagsDropped) log.info(`left out reserved tag ${tag}`);
        const what =
          report.status === "updated"
            ? `updated (${destination.writesCatalogIndex ? `${report.writtenPaths.length} files written; ` : ""}tags changed: ${report.changedTags.join(", ") || "none"}; description ${report.descStatus})`
            : "unchanged";
        log.info(`announced ${report.package} to ${report.destination}: ${what}`);
        if (report.requestUrl !== null) log.info(report.requestUrl);
      })
  );
}
