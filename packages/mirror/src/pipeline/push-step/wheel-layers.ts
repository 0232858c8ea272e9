import type { Logger } from "@pkg/common";
import { MediaType, memoryBlob, type Target } from "@pkg/oci";
import { defaultMetadata, serializeMetadata } from "@pkg/package";
import { canonicalJson, type LayerArg, packageManifest, readLocalLayer } from "@pkg/package/push";
import type { PreparedLayer } from "../documents/prepared-version.js";
import type { DecidedLayer } from "./decide.js";

type Wheel = PreparedLayer["wheel"];

/**
 * The standalone repository of a wheel's layer: `<wheel_scope>/<index-host>/<package>`, the host
 * its file was downloaded from (port left out: a repository name has no `:`), the package's
 * PEP 503 name. Byte-identical wheels share it, tagged with the wheel's sha256.
 */
export function wheelRepository(scope: string, wheel: Wheel): string {
  return `${scope}/${new URL(wheel.url).hostname.toLowerCase()}/${wheel.package}`;
}

export interface WheelRegistration {
  /** `wheel_scope` of the spec. */
  scope: string;
  /** A repository of the target's registry (or layout). */
  open: (repository: string) => Target;
  log: Logger;
  /** What this run registered or found present already (`repository:sha256`): each asked about once. */
  seen: Set<string>;
  /** Tag lists read this run, per repository. */
  tags: Map<string, Promise<Set<string>>>;
}

export function wheelRegistration(
  scope: string,
  open: (repository: string) => Target,
  log: Logger,
): WheelRegistration {
  return { scope, open, log, seen: new Set(), tags: new Map() };
}

/**
 * Publishes each wheel layer of `layers` standalone, under its wheel's sha256 in its wheel
 * repository, unless that tag is there already (read from the tag list, once per repository per
 * run) or this run did it; returns the layers with the repository to mount each from. A failure is
 * a warning only: the app's push then uploads that layer itself.
 */
export async function registerWheelLayers(
  layers: readonly DecidedLayer[],
  registration: WheelRegistration,
): Promise<LayerArg[]> {
  const out: LayerArg[] = [];
  for (const layer of layers) {
    if (layer.wheel === undefined) {
      out.push(layerArg(layer));
      continue;
    }
    const repository = wheelRepository(registration.scope, layer.wheel);
    out.push({ ...layerArg(layer), mountFrom: repository });
    const key = `${repository}:${layer.wheel.sha256}`;
    if (registration.seen.has(key)) continue;
    registration.seen.add(key);
    try {
      await registerOne(repository, layerArg(layer), layer.wheel, registration);
    } catch (error) {
      registration.log.warn(
        `wheel layer ${layer.wheel.name}: not registered in ${repository} (${error instanceof Error ? error.message : String(error)}); the app uploads it itself`,
      );
    }
  }
  return out;
}

/** The layer as the publisher reads it: its path, and the digest already checked. */
const layerArg = ({ path, digest }: DecidedLayer): LayerArg => ({
  path,
  ...(digest === undefined ? {} : { digest }),
});

async function registerOne(
  repository: string,
  arg: LayerArg,
  wheel: Wheel,
  registration: WheelRegistration,
): Promise<void> {
  const target = registration.open(repository);
  let tags = registration.tags.get(repository);
  if (tags === undefined) {
    tags = target.listTags().then((list) => new Set(list));
    registration.tags.set(repository, tags);
  }
  if ((await tags).has(wheel.sha256)) {
    registration.log.info(`${target.displayName}:${wheel.sha256.slice(0, 12)}: wheel layer present`);
    return;
  }
  const layer = await readLocalLayer(arg);
  const config = memoryBlob(serializeMetadata(defaultMetadata()));
  await target.pushBlob(config);
  await target.pushBlob(layer.source);
  const manifest = packageManifest(
    { mediaType: MediaType.ImageManifest, digest: config.digest, size: config.size },
    [{ mediaType: layer.mediaType, digest: layer.source.digest, size: layer.source.size }],
  );
  await target.pushManifest(canonicalJson(manifest), MediaType.ImageManifest, wheel.sha256);
  (await tags).add(wheel.sha256);
  registration.log.info(
    `${target.displayName}:${wheel.sha256.slice(0, 12)}: wheel layer ${wheel.name} registered`,
  );
}
