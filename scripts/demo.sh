#!/usr/bin/env bash
# The embedded default of the README: package the sample in examples/hello, publish two versions
# for two platforms into an OCI image layout (no registry needed), describe it, list the tags and
# pull it back. Every step is a real `pkg` command, printed before it runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${PKG_DEMO_DIR:-$root/demo-out}"
pkg="$root/packages/package/bin/pkg.js"
[ -f "$root/packages/package/dist/cli/main.js" ] || (cd "$root" && npx tsc -b)
rm -rf "$out" && mkdir -p "$out"

step() { printf '\n$ %s\n' "$*" >&2; "$@"; }
ref=demo.local/examples/hello

step "$pkg" package create "$root/examples/hello" -o "$out/bundle/hello.tar.zst" --metadata "$root/examples/hello.metadata.json"
for version in 1.0.0 1.1.0; do
  for platform in linux/amd64 linux/arm64; do
    step "$pkg" package push --layout "$out/layout" -i "$ref:${version}_20250101120000" -p "$platform" \
      --metadata "$out/bundle/metadata.json" --cascade "$out/bundle/hello.tar.zst"
  done
done
step "$pkg" package describe --layout "$out/layout" "$ref" --readme "$root/examples/hello.md" --logo "$root/examples/hello.svg"
step "$pkg" package tags --layout "$out/layout" "$ref"
step "$pkg" package pull --layout "$out/layout" "$ref:latest" --platform linux/amd64 -o "$out/pulled"
step "$out/pulled/content/bin/hello"
printf '\nThe layout is a standard OCI image layout: skopeo inspect --raw oci:%s/layout/examples/hello:latest\n' "$out" >&2
