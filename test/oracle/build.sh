#!/usr/bin/env bash
# Builds what the oracle tier runs: KServe v0.20.0's manager (cmd/manager) from the Go module
# proxy, beside the live tier's binaries (`test/live/build.sh no-metacontroller`: kube-apiserver,
# etcd, kustomize, kube-controller-manager; no Metacontroller, which this tier does not run).
#
# `go install github.com/kserve/kserve/cmd/manager@v0.20.0` is refused (KServe's go.mod has
# replace directives), so the module is downloaded (`go mod download`, read-only in the module
# cache), copied into .cache/oracle/src (writable) and built there, where its own go.mod and
# go.sum apply. Nothing of KServe is committed: the tier reads its CRDs, webhooks, ConfigMap and
# runtimes from the downloaded module directory at run time.
#
# The binary lands in .cache/oracle/bin/kserve-manager-<hash>, the hash covering the version,
# the Go version and this script. stdout: one JSON line {"binDir" (the live tier's),
# "kserveManager", "kserveModule", "kserveVersion", "cached", "seconds"}; progress goes to stderr.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || { echo "oracle build: go not found (need Go >= 1.25)" >&2; exit 1; }

version="${KSERVE_VERSION:-v0.20.0}"
out="$root/.cache/oracle"
start=$(date +%s)

live_json="$(bash "$root/test/live/build.sh" no-metacontroller)"
bin_dir="$(printf '%s' "$live_json" | sed -n 's/.*"binDir":"\([^"]*\)".*/\1/p')"
live_cached=$(printf '%s' "$live_json" | sed -n 's/.*"cached":\([a-z]*\).*/\1/p')

# The module directory (read-only); downloaded once into the Go module cache.
module="$(go mod download -json "github.com/kserve/kserve@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[[ -n "$module" && -f "$module/go.mod" ]] || { echo "oracle build: go mod download gave no module directory for kserve@$version" >&2; exit 1; }

hash=$( (echo "$version"; go version; sha256sum "$here/build.sh") | sha256sum | cut -c1-16)
bin="$out/bin/kserve-manager-$hash"
built=0
if [[ -x "$bin" ]]; then
  echo "oracle build: KServe $version manager cached in $bin" >&2
else
  echo "oracle build: building KServe $version manager -> $bin (about 12 minutes with a cold Go build cache)" >&2
  src="$out/src/kserve-$version"
  rm -rf "$src" && mkdir -p "$out/src" "$out/bin"
  cp -r "$module" "$src" && chmod -R u+w "$src"
  tmp="$(mktemp "$out/bin/.tmp-kserve-manager-XXXXXX")"
  (cd "$src" && CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -trimpath -ldflags='-s -w' -o "$tmp" ./cmd/manager) >&2
  chmod 755 "$tmp" && mv -f "$tmp" "$bin"
  rm -rf "$src"
  find "$out/bin" -maxdepth 1 -name 'kserve-manager-*' ! -path "$bin" -exec rm -f {} +
  built=1
fi

cached=$([[ $built == 0 && $live_cached == true ]] && echo true || echo false)
printf '{"binDir":"%s","kserveManager":"%s","kserveModule":"%s","kserveVersion":"%s","cached":%s,"seconds":%d}\n' \
  "$bin_dir" "$bin" "$module" "$version" "$cached" "$(($(date +%s) - start))"
