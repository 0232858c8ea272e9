import { readFile } from "node:fs/promises";
import { ExitCode, PkgError } from "@pkg/common";
import { defaultMetadata, type Metadata, parseMetadata } from "@pkg/package";
import { resolveIn } from "../../spec/context.js";
import { type ContentKeys, contentSettings, metadataPathFor } from "./settings.js";

export interface SelectedMetadata {
  metadata: Metadata;
  /** Absolute path of the file it came from; absent when the spec names none (the default metadata). */
  file?: string;
}

/**
 * The metadata one (variant, platform) builds with: the variant's `metadata` block when it has one,
 * else the top-level block; in it the platform's override, else `default`; with no block at all,
 * the metadata of a package that declares nothing.
 */
export async function selectMetadata(
  spec: ContentKeys,
  variant: ContentKeys | undefined,
  platform: string,
  specDir: string,
): Promise<SelectedMetadata> {
  const path = metadataPathFor(contentSettings(spec, variant).metadata, platform);
  if (path === undefined) return { metadata: defaultMetadata() };
  const file = resolveIn(specDir, path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new PkgError(ExitCode.Data, `metadata file ${file} cannot be read (${reason})`, { cause: error });
  }
  return { metadata: parseMetadata(text, file), file };
}
