#!/usr/bin/env bash
# The Dockerfile's runtime stage without Docker, on every Node major package.json `engines`
# claims (the image's among them): with that major (the machine's own node, or the npm
# registry's `node` package installed into .cache/), install what the stage copies as it does
# (`npm ci --omit=dev --ignore-scripts`, no EBADENGINE warning), then `--help`, `serve`:
# /healthz, a sync, SIGTERM → exit 0. Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../.."

image_majors=$(sed -n 's/^FROM node:\([0-9]*\)-alpine.*/\1/p' Dockerfile | sort -u)
[ "$(echo "$image_majors" | wc -l)" = 1 ] || { echo "smoke: the Dockerfile's stages use different Node majors: $image_majors"; exit 1; }
majors=$(node -p 'require("./package.json").engines.node.split("||").map((r) => /\^(\d+)\./.exec(r)[1]).join(" ")')
case " $majors " in *" $image_majors "*) ;; *) echo "smoke: the image's Node $image_majors is not in engines ($majors)"; exit 1 ;; esac
npm_cli="$(dirname "$(realpath "$(command -v npm)")")/npm-cli.js"
[ -f "$npm_cli" ] || npm_cli="$(npm root -g)/npm/bin/npm-cli.js"

smoke() { # smoke <major>
major=$1
if [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  node="$(command -v node)"
else
  tools="$PWD/.cache/node-$major"
  if [ ! -x "$tools/node_modules/.bin/node" ]; then
    npm install --prefix "$tools" --no-audit --no-fund --no-save "node@$major" >/dev/null
  fi
  node="$tools/node_modules/.bin/node"
fi

app=$(mktemp -d)
trap 'rm -rf "$app"; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null || true' EXIT
cp package.json package-lock.json "$app/"
cp -r dist "$app/dist"
(cd "$app" && NODE_ENV=production "$node" "$npm_cli" ci --omit=dev --ignore-scripts --no-audit --no-fund) > "$app/npm-ci.log" 2>&1
if grep -q EBADENGINE "$app/npm-ci.log"; then cat "$app/npm-ci.log"; echo "smoke: EBADENGINE on Node $major"; exit 1; fi

(cd "$app" && "$node" dist/hooks/cli/main.js --help) | grep -q 'modelhooks serve'
port=$((20000 + RANDOM % 20000))
(cd "$app" && exec env MODELHOOKS_HOST=127.0.0.1 MODELHOOKS_DRAIN_SECONDS=0 "$node" dist/hooks/cli/main.js serve --port "$port") > "$app/serve.log" 2>&1 &
pid=$!
"$node" -e '
const base = `http://127.0.0.1:${process.argv[1]}`;
const parent = { apiVersion: "trustyai.opendatahub.io/v1", kind: "TrustyAIService", metadata: { name: "svc", namespace: "team-a" }, spec: { storage: { format: "PVC" }, metrics: { schedule: "5s" } } };
(async () => {
  for (let i = 0; i < 100; i++) { try { await fetch(`${base}/healthz`); break; } catch { await new Promise((r) => setTimeout(r, 100)); } }
  if ((await (await fetch(`${base}/healthz`)).text()) !== "ok") throw new Error("/healthz");
  const res = await fetch(`${base}/hooks/trustyai/sync`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ parent }) });
  const answer = await res.json();
  if (res.status !== 200 || !(answer.children.length > 0)) throw new Error(`sync answered ${res.status}`);
})().catch((err) => { console.error(`smoke: ${err.message}`); process.exit(1); });
' "$port"
kill -TERM "$pid"
code=0; wait "$pid" || code=$?
pid=
[ "$code" = 0 ] || { cat "$app/serve.log"; echo "smoke: serve exited $code after SIGTERM"; exit 1; }
echo "image smoke: Node $("$node" --version), npm ci --omit=dev without EBADENGINE, --help, serve, sync, SIGTERM → 0"
rm -rf "$app"
}

for major in $majors; do smoke "$major"; done
