import type { Readable } from "node:stream";
import { dataError } from "@pkg/common";
import { type Entry, getFileNameLowLevel, openPromise, type ZipFile } from "yauzl";
import type { UnpackBudget } from "./limits.js";
import { type Placement, placeEntry } from "./place-entry.js";
import { zipEntryHeader } from "./zip-entry.js";

/** Longest symlink target accepted, Linux's PATH_MAX. */
const MAX_LINK_TARGET = 4096;

async function* charged(stream: Readable, budget: UnpackBudget): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    budget.takeBytes((chunk as Buffer).length);
    yield chunk as Buffer;
  }
}

async function readLinkTarget(
  zip: ZipFile,
  entry: Entry,
  name: string,
  budget: UnpackBudget,
): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of charged(await zip.openReadStreamPromise(entry), budget)) {
    length += chunk.length;
    if (length > MAX_LINK_TARGET)
      throw dataError(`zip entry ${JSON.stringify(name)} is a symlink with an overlong target`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const NO_BODY: AsyncIterable<Buffer> = { async *[Symbol.asyncIterator]() {} };

/**
 * Every entry of the zip `file` with its name decoded (CP437 or UTF-8, as tar names are judged),
 * the archive closed however the walk ends.
 */
async function* zipEntries(file: string): AsyncGenerator<{ zip: ZipFile; entry: Entry; name: string }> {
  const zip = await openPromise(file, {
    lazyEntries: true,
    autoClose: false,
    decodeStrings: false,
    validateEntrySizes: true,
  });
  try {
    for await (const entry of zip.eachEntry()) {
      const name = getFileNameLowLevel(
        entry.generalPurposeBitFlag,
        entry.fileNameRaw,
        entry.extraFields,
        false,
      );
      yield { zip, entry, name };
    }
  } finally {
    zip.close();
  }
}

/** Unpacks a zip archive; entry names are judged like tar names. */
export async function unpackZip(file: string, placement: Placement): Promise<void> {
  for await (const { zip, entry, name } of zipEntries(file)) {
    const header = zipEntryHeader({
      name,
      versionMadeBy: entry.versionMadeBy,
      externalFileAttributes: entry.externalFileAttributes,
    });
    if (header.type === "symlink") header.linkname = await readLinkTarget(zip, entry, name, placement.budget);
    const body =
      header.type === "file" ? charged(await zip.openReadStreamPromise(entry), placement.budget) : NO_BODY;
    await placeEntry(header, body, placement);
  }
}

/**
 * The bytes of the first file entry of a zip whose name (decoded as `unpackZip` decodes it)
 * `wanted` accepts, read without unpacking anything else; undefined when there is none. An entry
 * larger than `maxBytes` is a data error.
 */
export async function readZipEntry(
  file: string,
  wanted: (name: string) => boolean,
  maxBytes: number,
): Promise<{ name: string; bytes: Buffer } | undefined> {
  for await (const { zip, entry, name } of zipEntries(file)) {
    if (name.endsWith("/") || !wanted(name)) continue;
    if (entry.uncompressedSize > maxBytes)
      throw dataError(
        `zip entry ${JSON.stringify(name)} has ${entry.uncompressedSize} bytes, more than ${maxBytes}`,
      );
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    return { name, bytes: Buffer.concat(chunks) };
  }
  return undefined;
}
