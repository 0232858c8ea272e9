// @pkg/net: the one network home of the pkg tools (no native modules, so the catalog may use it).
export {};
