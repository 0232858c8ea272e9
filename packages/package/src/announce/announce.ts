import { dataError, usageError } from "@pkg/common";
import { parsePackageRoot, rootFilePath, splitPackageName } from "@pkg/index";
import { createLimiter } from "@pkg/index/read";
import { type IndexState, type PackageWrite, planPackageWrite, readIndexState } from "@pkg/index/write";
import { openLayout, openRegistry, parseReference, type TargetReader } from "@pkg/oci";
import { parseTag } from "../version/tags.js";
import type {
  AnnounceDestination,
  IndexChange,
  IndexFileReader,
  PublishResult,
  Regenerate,
} from "./destination.js";
import { observeSource, type SourceObservations } from "./observe.js";
import type { AnnounceRequest } from "./request.js";

/** What one announce did. */
export interface AnnounceReport {
  /** `<ns>/<pkg>` */
  package: string;
  /** The destination's name: the directory, or `forge host/ns/project`. */
  destination: string;
  status: "updated" | "unchanged";
  /** The request (pull or merge request) opened or updated; null for a local directory. */
  requestUrl: string | null;
  requestNumber: number | null;
  /** Tags added or re-observed. */
  tags: string[];
  /** Tags added, or whose content moved. */
  changedTags: string[];
  /** Reserved tags the registry listed and the announce left out. */
  reservedTagsDropped: string[];
  descStatus: "updated" | "unchanged";
  /** Index-relative paths written, in order (a local directory). */
  writtenPaths: string[];
}

/** Image indexes fetched at once. */
const FETCH_CONCURRENCY = 8;

/** The variant a tag that reads as a version carries (`slim` of `slim-1.2.3`). */
function variantOf(tag: string): string | undefined {
  const info = parseTag(tag);
  if (info.kind === "primary" || info.kind === "exact") return info.variant;
  if (info.kind === "rolling" && info.series.length > 0) return info.variant;
  return undefined;
}

function openSource(repository: string, layout: string | undefined): TargetReader {
  const reference = parseReference(repository.slice("oci://".length));
  return layout === undefined ? openRegistry(reference) : openLayout(layout, reference.repository);
}

/** The label a new package's name starts with: the one given, else that of the index's first
 *  package (exit 64 when the index has none to go by). */
async function labelFor(request: AnnounceRequest, state: IndexState, read: IndexFileReader): Promise<string> {
  if (request.label !== undefined) return request.label;
  const first = Object.keys(state.catalogPackages ?? {}).sort()[0];
  if (first !== undefined) {
    const path = rootFilePath(first);
    const bytes = await read(path);
    const name = bytes && parsePackageRoot(bytes, path, { nameSegments: state.nameSegments }).name;
    const label = name && splitPackageName(name, state.nameSegments)?.label;
    if (label) return label;
  }
  throw usageError(
    `the index holds no package yet: give --label NAME (the index's own name) for ${request.package}`,
  );
}

/** The repository the root names, or the one to name (exit 64 when they differ or neither is given). */
function repositoryFor(request: AnnounceRequest, state: IndexState): string {
  const committed = state.committed?.root.repository;
  if (committed !== undefined && request.repository !== undefined && request.repository !== committed) {
    throw usageError(
      `the index names ${committed} for ${request.package}; --repository ${request.repository.slice(6)} differs (the repository is changed by a reviewed edit of the root)`,
    );
  }
  const repository = committed ?? request.repository;
  if (repository === undefined) {
    throw usageError(`the index does not hold ${request.package} yet: give --repository REGISTRY/REPOSITORY`);
  }
  return repository;
}

/** The tags to observe, and reserved ones the registry listed. */
async function tagsToObserve(
  request: AnnounceRequest,
  state: IndexState,
  source: SourceObservations,
): Promise<{ tags: string[]; reserved: string[] }> {
  const mode = request.mode;
  if (mode.kind === "tags" || mode.kind === "add") return { tags: mode.tags, reserved: [] };
  if (mode.kind === "from-registry") return source.listTags();
  const committed = state.committed?.root.tags;
  if (committed === undefined)
    throw dataError(`--refresh: the index does not hold ${request.package}; nothing to refresh`);
  return { tags: Object.keys(committed), reserved: [] };
}

/**
 * The function a destination calls to compute the change, from the files it holds now: reads the
 * committed root, observes the tags the mode names (each tag's image index, verbatim) and the
 * description, and plans the package's files. Registry reads are made once per announce, however
 * often the destination calls it (after losing a race). `onWrite` sees each plan.
 */
export function createRegenerate(
  request: AnnounceRequest,
  destination: Pick<AnnounceDestination, "writesCatalogIndex">,
  onWrite: (write: PackageWrite) => void = () => {},
): Regenerate {
  let observations: SourceObservations | undefined;
  const limit = createLimiter(FETCH_CONCURRENCY);
  return async (read): Promise<IndexChange> => {
    const state = await readIndexState(read, request.package, {
      keepsCatalogIndex: destination.writesCatalogIndex,
    });
    const repository = repositoryFor(request, state);
    observations ??= observeSource(request.source ?? openSource(repository, request.layout), request.signal);
    const source = observations;
    const newRoot =
      state.committed === undefined
        ? {
            name: `${await labelFor(request, state, read)}/${request.package}`,
            repository,
            owners: request.owners ?? [],
          }
        : undefined;
    if (newRoot !== undefined && newRoot.owners.length === 0) {
      throw usageError(
        `the index does not hold ${request.package} yet: give its owner with --owner LOGIN:ID`,
      );
    }
    const { tags, reserved } = await tagsToObserve(request, state, source);
    const observed = await Promise.all(
      tags.map((tag) => limit(async () => ({ tag, bytes: await source.imageIndex(tag) }))),
    );
    const fallbackTitle = request.package.slice(request.package.lastIndexOf("/") + 1);
    const description = await source.description(fallbackTitle);
    if (description === null && state.committed?.root.desc != null) {
      throw dataError(
        `${source.name}: the description the index records (${state.committed.root.desc.digest}) is gone from the registry (no ${"__pkg.desc"} tag)`,
      );
    }
    const write = planPackageWrite({
      state,
      newRoot,
      mode: request.mode.kind === "tags" ? "replace" : "merge",
      observed,
      description,
      now: request.now ?? new Date(),
      variantOf,
    });
    onWrite(write);
    return {
      files: write.files,
      status: write.status,
      tags: write.tags,
      reservedTagsDropped: [...new Set([...reserved, ...write.reservedTagsDropped])],
    };
  };
}

/**
 * Announces a package to an index: computes the package's files from what the destination holds
 * and what its repository holds now, and lets the destination publish them (a local directory
 * writes them; a forge destination opens or updates a request). The report says what changed.
 * A dry run (`request.dryRun`) computes the change against the index as committed and writes,
 * pushes and opens nothing: its report says whether a real run would change the index.
 */
export async function announce(
  request: AnnounceRequest,
  destination: AnnounceDestination,
): Promise<AnnounceReport> {
  let last: PackageWrite | undefined;
  let lastChange: IndexChange | undefined;
  const regenerate = createRegenerate(request, destination, (write) => {
    last = write;
  });
  const tracked: Regenerate = async (read) => {
    lastChange = await regenerate(read);
    return lastChange;
  };
  const result: PublishResult = request.dryRun
    ? {
        status: await destination.preview(tracked, request.signal),
        requestUrl: null,
        requestNumber: null,
        writtenPaths: [],
      }
    : await destination.publish(tracked, `announce: ${request.package}`, request.signal);
  if (last === undefined || lastChange === undefined)
    throw new Error("the destination published without regenerating");
  return {
    package: request.package,
    destination: destination.name,
    status: result.status,
    requestUrl: result.requestUrl,
    requestNumber: result.requestNumber,
    tags: lastChange.tags,
    changedTags: last.changedTags,
    reservedTagsDropped: lastChange.reservedTagsDropped,
    descStatus: last.descStatus,
    writtenPaths: result.writtenPaths,
  };
}
