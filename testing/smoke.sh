#!/usr/bin/env bash
# A smoke run on whichever `node` is first on PATH: the bundled server on a fresh SQLite file, the
# README's whole flow pasted as it is written, a graceful stop, then the storage contract suite (SQLite and PostgreSQL) and the SQLite store's own tests.
# CI runs it on the oldest Node the engines field allows; `npm test` covers the rest on Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "smoke run on node $(node --version)"

dir=$(mktemp -d)
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })')
password=smoke-password-1
WMS_DATABASE_URL="sqlite:$dir/wms.db" WMS_ADMIN_PASSWORD=$password PORT=$port HOST=127.0.0.1 WMS_ACCESS_LOG=false \
  node packages/http/dist/server.bundle.js >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$dir"' EXIT

for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  kill -0 $server 2>/dev/null || { cat "$dir/server.log"; echo "the server exited at start-up"; exit 1; }
  sleep 0.1
done

# The README's whole flow, as a reader would paste it.
flow=$(awk '/^## The whole flow/ { section = 1 } section && /^```sh/ { inside = 1; next } inside && /^```/ { exit } inside' README.md)
[ -n "$flow" ] || { echo "README.md has no whole flow to run"; exit 1; }
flow=${flow//<the password>/$password}
flow=${flow//http:\/\/localhost:3000/http://127.0.0.1:$port}
out=$(bash -euo pipefail -c "$flow")
grep -q '"order_status_description":"Shipped"' <<<"$out" || { echo "$out"; echo "the flow did not ship its order"; exit 1; }
echo "the README's whole flow shipped its order"

kill -TERM $server
status=0; wait $server || status=$?
[ $status -eq 0 ] || { cat "$dir/server.log"; echo "the server exited with $status on SIGTERM"; exit 1; }
echo "the server stopped gracefully"

node node_modules/vitest/vitest.mjs run packages/sql packages/sql-sqlite
