#!/usr/bin/env bash
# Builds kube-apiserver, etcd and kustomize from the Go module proxy for the e2e tier; with the
# argument `helm`, helm too (only the files that lint and template the chart ask for it).
#
# Binaries land in .cache/e2e/bin/<tool-module>-<hash>/, where the hash covers the
# module's go.mod, go.sum and sources, the Go version and this script: a second run with
# nothing changed builds nothing. Output directories are filled in a temp dir and renamed
# into place, so an interrupted build never leaves a half-filled "cached" directory.
#
# stdout: one JSON line {"binDir", "cached", "seconds" (this run), "builtSeconds" (when the
# cached binaries were built)}; progress goes to stderr.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || { echo "build.sh: go not found (need Go >= 1.26)" >&2; exit 1; }

# No cgo: static binaries that need no C toolchain.
export CGO_ENABLED=0
flags=(-trimpath)
out="$root/.cache/e2e/bin"
start=$(date +%s)
built=0

key() { # hash of a tool module's inputs
  (cd "$here/tools/$1" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print0 |
    sort -z | xargs -0 sha256sum; go version; sha256sum "$here/build.sh") | sha256sum | cut -c1-16
}

build() { # build <tool-module> <ldflags> <packages...>; sets $dir
  local mod=$1 ldflags=$2 tmp
  shift 2
  dir="$out/$mod-$(key "$mod")"
  [[ -f "$dir/.done" ]] && { echo "e2e build: $mod cached in $dir" >&2; return; }
  echo "e2e build: building $mod -> $dir (minutes with a cold Go build cache)" >&2
  mkdir -p "$out"
  tmp="$(mktemp -d "$out/.tmp-$mod-XXXXXX")" && chmod 755 "$tmp"
  local t0=$SECONDS
  (cd "$here/tools/$mod" && go build "${flags[@]}" -ldflags="$ldflags" -o "$tmp/" "$@") >&2
  echo $((SECONDS - t0)) >"$tmp/.done" # build seconds, for the summary of later cached runs
  # A concurrent run may have won the race: then its directory stays and ours goes.
  mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"
  built=1
  # Older builds of this module (previous go.mod) are 100+ MB each: keep only the current one.
  find "$out" -maxdepth 1 -name "$mod-*" ! -path "$dir" -exec rm -rf {} +
}

build_seconds() { local s; s=$(cat "$1/.done"); echo "${s:-0}"; }

# Read from go.mod, not `go list`, so that a cached run needs neither network nor module cache.
k8s_version=$(awk '$1 == "k8s.io/kubernetes" { print $2; exit }' "$here/tools/apiserver/go.mod")
minor=${k8s_version#v1.}; minor=${minor%%.*}
# Without these, kube-apiserver reports v0.0.0-master at /version.
v=k8s.io/component-base/version
k8s_ldflags="-s -w -X $v.gitVersion=$k8s_version -X $v.gitMajor=1 -X $v.gitMinor=$minor -X $v.gitTreeState=clean"

build apiserver "$k8s_ldflags" k8s.io/kubernetes/cmd/kube-apiserver ./etcd
apiserver_dir=$dir
build kustomize "-s -w" sigs.k8s.io/kustomize/kustomize/v5
kustomize_dir=$dir

# One directory for the tests: symlinks to the current builds.
link="$out/current"
mkdir -p "$link"
ln -sfn "$apiserver_dir/kube-apiserver" "$link/kube-apiserver"
ln -sfn "$apiserver_dir/etcd" "$link/etcd"
ln -sfn "$kustomize_dir/kustomize" "$link/kustomize"
built_seconds=$(($(build_seconds "$apiserver_dir") + $(build_seconds "$kustomize_dir")))

if [[ " $* " == *" helm "* ]]; then
  helm_version=$(awk '$1 == "helm.sh/helm/v3" { print $2; exit }' "$here/tools/helm/go.mod")
  # Without it, `helm version` says v3.22 with no patch (internal/version's default).
  build helm "-s -w -X helm.sh/helm/v3/internal/version.version=$helm_version" helm.sh/helm/v3/cmd/helm
  ln -sfn "$dir/helm" "$link/helm"
  built_seconds=$((built_seconds + $(build_seconds "$dir")))
fi

cached=$([[ $built == 0 ]] && echo true || echo false)
printf '{"binDir":"%s","cached":%s,"seconds":%d,"builtSeconds":%d}\n' "$link" "$cached" "$(($(date +%s) - start))" "$built_seconds"
