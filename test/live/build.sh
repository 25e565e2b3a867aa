#!/usr/bin/env bash
# Builds what the live tier runs beside the e2e tier's binaries: kube-controller-manager (from
# test/live/tools/controller-manager: the e2e tier's module test/e2e/tools/apiserver with the same
# k8s.io/kubernetes release, replaces and versions, plus what kube-controller-manager alone needs)
# and Metacontroller (from $METACONTROLLER_SRC, default ../shared/metacontroller,
# read-only: -mod=readonly, output outside it).
#
# kube-apiserver, etcd and kustomize come from test/e2e/build.sh (cached there). Binaries land in
# .cache/live/bin/<name>-<hash>/, the hash covering the sources, the Go version and this script;
# .cache/live/bin/current/ links all five. stdout: one JSON line {"binDir", "cached", "seconds",
# "metacontrollerSrc"}; progress goes to stderr. With the argument `no-metacontroller` (the oracle
# tier, test/oracle/build.sh), Metacontroller is neither needed nor built ("metacontrollerSrc": "").
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || { echo "live build: go not found (need Go >= 1.26)" >&2; exit 1; }
with_mc=$([[ "${1:-}" == no-metacontroller ]] && echo 0 || echo 1)
src=""
if [[ $with_mc == 1 ]]; then
  src="$(cd "${METACONTROLLER_SRC:-$root/../shared/metacontroller}" && pwd)"
  [[ -f "$src/go.mod" ]] || { echo "live build: no Metacontroller source in $src" >&2; exit 1; }
fi

export CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false"
out="$root/.cache/live/bin"
start=$(date +%s)
built=0

e2e_json="$(bash "$root/test/e2e/build.sh")"
e2e_bin="$(printf '%s' "$e2e_json" | sed -n 's/.*"binDir":"\([^"]*\)".*/\1/p')"

key() { # key <dir>: hash of a Go module's inputs, the Go version and this script
  (cd "$1" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print0 |
    sort -z | xargs -0 sha256sum; go version; sha256sum "$here/build.sh") | sha256sum | cut -c1-16
}

build() { # build <name> <module dir> <ldflags> <package>; sets $dir
  local name=$1 mod=$2 ldflags=$3 pkg=$4 tmp
  dir="$out/$name-$(key "$mod")"
  [[ -f "$dir/.done" ]] && { echo "live build: $name cached in $dir" >&2; return; }
  echo "live build: building $name -> $dir (minutes with a cold Go build cache)" >&2
  mkdir -p "$out"
  tmp="$(mktemp -d "$out/.tmp-$name-XXXXXX")" && chmod 755 "$tmp"
  local t0=$SECONDS
  (cd "$mod" && go build -trimpath -ldflags="$ldflags" -o "$tmp/$name" "$pkg") >&2
  echo $((SECONDS - t0)) >"$tmp/.done"
  mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"
  built=1
  find "$out" -maxdepth 1 -name "$name-*" ! -path "$dir" -exec rm -rf {} +
}

k8s_mod="$here/tools/controller-manager"
k8s_version=$(awk '$1 == "k8s.io/kubernetes" { print $2; exit }' "$k8s_mod/go.mod")
minor=${k8s_version#v1.}; minor=${minor%%.*}
v=k8s.io/component-base/version
build kube-controller-manager "$k8s_mod" \
  "-s -w -X $v.gitVersion=$k8s_version -X $v.gitMajor=1 -X $v.gitMinor=$minor -X $v.gitTreeState=clean" \
  k8s.io/kubernetes/cmd/kube-controller-manager
kcm_dir=$dir
if [[ $with_mc == 1 ]]; then
  build metacontroller "$src" "-s -w" ./pkg/cmd/metacontroller
  mc_dir=$dir
fi

link="$out/current"
mkdir -p "$link"
for b in kube-apiserver etcd kustomize; do ln -sfn "$(readlink -f "$e2e_bin/$b")" "$link/$b"; done
ln -sfn "$kcm_dir/kube-controller-manager" "$link/kube-controller-manager"
[[ $with_mc == 1 ]] && ln -sfn "$mc_dir/metacontroller" "$link/metacontroller"

e2e_cached=$(printf '%s' "$e2e_json" | sed -n 's/.*"cached":\([a-z]*\).*/\1/p')
cached=$([[ $built == 0 && $e2e_cached == true ]] && echo true || echo false)
printf '{"binDir":"%s","cached":%s,"seconds":%d,"metacontrollerSrc":"%s"}\n' "$link" "$cached" "$(($(date +%s) - start))" "$src"
