import { DEFAULT_ASSET_TYPE } from "./asset-type.js";
import { DEFAULT_BIN_SCAN } from "./bin-scan.js";
import { DEFAULT_BUILD_TIMESTAMP } from "./build-timestamp.js";
import { DEFAULT_CASCADE } from "./cascade.js";
import { defaultCatalog } from "./catalog.js";
import { defaultConcurrency } from "./concurrency.js";
import type { SectionContext } from "./context.js";
import type { MirrorSpec } from "./mirror-spec.js";
import { PYTHON_SOURCE_TYPES } from "./source.js";
import { DEFAULT_VERIFY } from "./verify.js";

export const DEFAULT_WHEEL_SCOPE = "pip-packages";

/**
 * The spec's documented defaults for every top-level key the file leaves out (readers only run for
 * keys that are present, and fill the defaults inside their own section). The one place where an
 * absent key gets its value, so every consumer sees the same model.
 */
export function applyDefaults(spec: MirrorSpec, ctx: SectionContext): void {
  const python = spec.source !== undefined && PYTHON_SOURCE_TYPES.includes(spec.source.type);
  spec.bin_scan ??= DEFAULT_BIN_SCAN;
  spec.libc_lint ??= true;
  spec.skip_prereleases ??= false;
  spec.wheel_scope ??= DEFAULT_WHEEL_SCOPE;
  spec.build_timestamp ??= DEFAULT_BUILD_TIMESTAMP;
  spec.cascade ??= structuredClone(DEFAULT_CASCADE);
  spec.verify ??= structuredClone(DEFAULT_VERIFY);
  spec.concurrency ??= defaultConcurrency();
  spec.catalog ??= defaultCatalog(ctx);
  if (spec.source !== undefined && !python) spec.asset_type ??= structuredClone(DEFAULT_ASSET_TYPE);
  const source = spec.source;
  if ((source?.type === "pylock" || source?.type === "pypi") && source.package === undefined && spec.name) {
    source.package = spec.name;
  }
}
