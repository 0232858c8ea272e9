export { asImageIndex } from "./index-merge.js";
export { type LayerArg, type LocalLayer, parseLayerArg, readLocalLayer, sha256File } from "./layer-args.js";
export { canonicalJson, packageManifest } from "./manifest.js";
export { type LayerReuse, type PushReport, type PushRequest, pushPackage } from "./push.js";
export { type IndexEntry, publishTags, type TagReport, type TagRequest, writeOrder } from "./tags.js";
