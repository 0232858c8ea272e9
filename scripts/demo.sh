#!/usr/bin/env bash
# The main job of the README, on a sample upstream: examples/hello-mirror/serve-upstream.mjs
# serves two releases of examples/hello (linux/amd64 and linux/arm64 tar.gz, with digests) on
# loopback, `pkg-mirror package sync` mirrors them into an OCI image layout (no registry needed)
# with the tag cascade, `pkg package describe` gives it a description, `pkg` lists the tags and
# pulls `latest` back and runs it, `pkg-mirror package pipeline announce --out` announces every tag
# into a local package index, and `pkg-catalog build` renders the catalog site from that index.
# Every step is a real command, printed before it runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${PKG_DEMO_DIR:-$root/demo-out}"
pkg="$root/packages/package/bin/pkg.js"
mirror="$root/packages/mirror/bin/pkg-mirror.js"
catalog="$root/packages/catalog/bin/pkg-catalog.js"
[ -f "$root/packages/package/dist/cli/main.js" ] && [ -f "$root/packages/mirror/dist/cli/main.js" ] &&
  [ -f "$root/packages/catalog/dist/cli/main.js" ] || (cd "$root" && npx tsc -b)
rm -rf "$out" && mkdir -p "$out"

step() { printf '\n$ %s\n' "$*" >&2; "$@"; }
ref=demo.local/examples/hello

node "$root/examples/hello-mirror/serve-upstream.mjs" >"$out/upstream.url" &
upstream=$!
trap 'kill "$upstream" 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$out/upstream.url" ] && break; sleep 0.1; done
url="$(head -n 1 "$out/upstream.url")"
[ -n "$url" ] || { echo "demo: the sample upstream did not start" >&2; exit 1; }
printf 'sample upstream: %s\n' "$url" >&2

step env PKG_FORGEONE_API_URL="$url" "$mirror" package sync "$root/examples/hello-mirror/mirror.yml" \
  --layout "$out/layout" --work-dir "$out/work" --repo-root "$root"
step "$pkg" package describe --layout "$out/layout" "$ref" --readme "$root/examples/hello.md" --logo "$root/examples/hello.svg"
step "$pkg" package tags --layout "$out/layout" "$ref"
step "$pkg" package pull --layout "$out/layout" "$ref:latest" --platform linux/amd64 -o "$out/pulled"
step "$out/pulled/content/bin/hello"
step cat "$out/pulled/content/share/hello/VERSION"
step "$mirror" package pipeline announce --spec "$root/examples/hello-mirror/mirror.yml" --repo-root "$root" \
  --layout "$out/layout" --out "$out/index" --label demo.local --owner demo:1
printf '{ "brand": { "title": "pkg demo" }, "sources": [{ "path": "./index", "root": true }] }\n' >"$out/catalog.config.json"
step cat "$out/catalog.config.json"
step "$catalog" build "$out/catalog.config.json" --out "$out/site"

printf '\nThe layout is a standard OCI image layout: skopeo inspect --raw oci:%s/layout/examples/hello:latest\n' "$out" >&2
printf 'The package index is %s/index, and the catalog site built from it is %s/site:\n' "$out" "$out" >&2
printf '  open file://%s/site/index.html (the package page: site/examples/hello/index.html)\n' "$out" >&2
printf '  or serve it, rebuilt on every change: npx pkg-catalog dev %s/catalog.config.json\n' "${out#"$root"/}" >&2
