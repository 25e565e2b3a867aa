#!/usr/bin/env bash
# The README's `npm start`, as a newcomer runs it: the hook server comes up on PORT, answers
# /healthz and a sync request, and Ctrl-C (SIGINT to its process group) stops it cleanly. Run from the repository root
# (after `npm ci`); .ci/run calls it in the fresh clone.
set -euo pipefail
port="${PORT:-18181}"
log="$(mktemp)"
# Its own process group, as in a terminal, where Ctrl-C signals npm, sh, tsx and node at once.
PORT="$port" MODELHOOKS_DRAIN_SECONDS=0 setsid npm start >"$log" 2>&1 &
pid=$!
stop() { kill -INT -- "-$pid" 2>/dev/null || true; }
trap stop EXIT
node - "$port" <<'JS'
const port = process.argv[2];
const deadline = Date.now() + 60_000;
async function main() {
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('npm start: no answer on /healthz within 60 s');
    await new Promise((r) => setTimeout(r, 500));
  }
  const body = {
    controller: { spec: {} },
    parent: { apiVersion: 'servapi.dev-state.com/v1alpha1', kind: 'Tfserv', metadata: { name: 'smoke', namespace: 'default', uid: 'u1', generation: 1 }, spec: {} },
    children: {},
    related: {},
  };
  const r = await fetch(`http://127.0.0.1:${port}/hooks/tfserv/sync`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await r.json();
  if (r.status !== 200 || !Array.isArray(answer.children)) throw new Error(`npm start: sync answered ${r.status}: ${JSON.stringify(answer)}`);
  console.log(`npm start: /healthz ok, sync answered ${answer.children.length} children`);
}
main().catch((e) => { console.error(e.message); process.exit(1); });
JS
trap - EXIT
stop
# npm itself ends by the signal; what counts is that the server drained and stopped.
wait "$pid" || true
for _ in $(seq 1 20); do grep -q '"msg":"stopped"' "$log" && break; sleep 0.5; done
if grep -q '"msg":"stopped"' "$log"; then echo "npm start: the server stopped cleanly on Ctrl-C"; else cat "$log"; echo "npm start: the server did not stop cleanly"; exit 1; fi
