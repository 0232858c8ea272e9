#!/usr/bin/env bash
# The embedded default of the README: package the sample in examples/hello as two versions, publish
# both for two platforms into an OCI image layout (no registry needed) with the tag cascade,
# describe the repository, list its tags and pull `latest` back. Every step is a real `pkg`
# command, printed before it runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${PKG_DEMO_DIR:-$root/demo-out}"
pkg="$root/packages/package/bin/pkg.js"
[ -f "$root/packages/package/dist/cli/main.js" ] || (cd "$root" && npx tsc -b)
rm -rf "$out" && mkdir -p "$out"

step() { printf '\n$ %s\n' "$*" >&2; "$@"; }
ref=demo.local/examples/hello

# two versions, published newest first: the older one fills its own tags and leaves latest alone
for version in 1.1.0 1.0.0; do
  mkdir -p "$out/src"
  cp -R "$root/examples/hello" "$out/src/$version"
  echo "$version" > "$out/src/$version/share/hello/VERSION"
  step "$pkg" package create "$out/src/$version" -o "$out/bundle/$version/hello.tar.zst" \
    --metadata "$root/examples/hello.metadata.json"
  for platform in linux/amd64 linux/arm64; do
    step "$pkg" package push --layout "$out/layout" -i "$ref:${version}_20250101120000" -p "$platform" \
      --metadata "$out/bundle/$version/metadata.json" --cascade "$out/bundle/$version/hello.tar.zst"
  done
done
step "$pkg" package describe --layout "$out/layout" "$ref" --readme "$root/examples/hello.md" --logo "$root/examples/hello.svg"
step "$pkg" package tags --layout "$out/layout" "$ref"
step "$pkg" package pull --layout "$out/layout" "$ref:latest" --platform linux/amd64 -o "$out/pulled"
step "$out/pulled/content/bin/hello"
step cat "$out/pulled/content/share/hello/VERSION"
printf '\nThe layout is a standard OCI image layout: skopeo inspect --raw oci:%s/layout/examples/hello:latest\n' "$out" >&2
