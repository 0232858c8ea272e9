import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Command } from "@commander-js/extra-typings";
import { integerOption, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { readMetadataFile, writeMetadataFile } from "../../metadata/files.js";

export function createCommand() {
  return new Command("create")
    .description(
      "Bundle a directory as a deterministic tar compressed with zstd or xz: the same tree always gives the same digest. Symlinks are kept when they stay inside the directory; one that points outside is refused (exit 65).",
    )
    .argument("<dir>", "directory whose contents become the package content")
    .requiredOption("-o, --output <file>", "bundle to write: *.tar.zst or *.tar.xz")
    .option("-m, --metadata <file>", "metadata.json to validate and write beside the bundle, canonicalised")
    .option(
      "-l, --level <n>",
      "compression level: zstd 1-19 (default 3), xz 0-9 (default 6)",
      integerOption("--level", 0, 22),
    )
    .option("-t, --threads <n>", "compression threads, 0 = all cores", integerOption("--threads", 0, 256), 0)
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .addHelpText(
      "after",
      "\nExample:\n  pkg package create ./dist/mytool -o mytool.tar.zst --metadata metadata.json",
    )
    .action(async (dir, options) => {
      const log = stderrLogger();
      // metadata first: a bad file fails before minutes of compression
      const metadata = options.metadata === undefined ? undefined : await readMetadataFile(options.metadata);
      await mkdir(dirname(options.output), { recursive: true });
      // loaded on use: the compressors are native modules that other commands need not pay for
      const { createBundle } = await import("../../bundle/index.js");
      const result = await createBundle({
        sourceDir: dir,
        output: options.output,
        level: options.level,
        threads: options.threads,
      });
      const metadataPath = metadata ? join(dirname(options.output), "metadata.json") : undefined;
      if (metadata && metadataPath) await writeMetadataFile(metadataPath, metadata);
      if (options.format === "json") {
        printJson({ bundle: options.output, ...result, metadata: metadataPath ?? null });
      } else {
        log.info(`${options.output}: ${result.entries} entries, ${result.size} bytes, ${result.digest}`);
        if (metadataPath) log.info(`${metadataPath}: written`);
      }
    });
}
