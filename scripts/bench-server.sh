#!/usr/bin/env bash
# `make bench`: the native server as a new user runs it (`kubesim serve`, HTTPS, the admin
# token), loaded with wrk on loopback (2 threads, 16 connections): POST create with
# generateName, GET one ControllerRevision, LIST a page of 500, LIST everything from the watch
# cache (resourceVersion=0), and resident memory before and after loading N objects, once
# compaction has freed the history and the server has given that memory back
# (benches/ratios.rs also reports live heap per object, and sets these rows beside its
# in-process limits).
#
# Writes target/bench/server.tsv (row, value, unit) and prints it; without wrk it says so and
# writes nothing. N defaults to 100000 (BENCH_OBJECTS to change), seconds per run to 5.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${BENCH_OBJECTS:-100000}"
SECS="${BENCH_SECONDS:-5}"
OUT=target/bench
mkdir -p "$OUT"
rm -f "$OUT/server.tsv"

if ! command -v wrk >/dev/null; then
  echo "bench-server: wrk is not installed (Debian package wrk); skipping the server rows"
  exit 0
fi

cargo build --quiet --release --bin kubesim
PORT=$((20000 + RANDOM % 20000))
KCFG="$OUT/kubeconfig"
"${CARGO_TARGET_DIR:-target}/release/kubesim" serve --port "$PORT" --kubeconfig "$KCFG" --clock manual >"$OUT/server.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
URL="https://127.0.0.1:$PORT"
AUTH="Authorization: Bearer kubesim"
# curl's User-Agent would get pretty JSON, as from kube-apiserver; the bench reads compact.
curl() { command curl -A kubesim-bench "$@"; }
for _ in $(seq 100); do
  curl -sk -o /dev/null -H "$AUTH" "$URL/readyz" && break
  sleep 0.1
done
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$PID/status"; }
row() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" | tee -a "$OUT/server.tsv"; }
COLL="$URL/apis/apps/v1/namespaces/default/controllerrevisions"

# About 800 bytes of JSON once stored (uid, timestamps and managedFields added).
cat >"$OUT/post.lua" <<'EOF'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer kubesim"
wrk.body = '{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"generateName":"bench-","labels":{"app":"bench","tier":"backend","release":"stable"},"annotations":{"bench.kubesim.io/note":"an object about the size of a small real one"}},"revision":1,"data":{"spec":{"replicas":3,"selector":{"matchLabels":{"app":"bench"}},"template":{"metadata":{"labels":{"app":"bench"}},"spec":{"containers":[{"name":"main","image":"registry.example/bench:1.0","ports":[{"containerPort":8080}]}]}}}}}'
EOF
cat >"$OUT/auth.lua" <<'EOF'
wrk.headers["Authorization"] = "Bearer kubesim"
EOF

# Requests/s and transfer/s from wrk's summary.
wrk_run() {
  wrk -t2 -c16 "$@" | tee "$OUT/wrk.last" >/dev/null
  awk '/^Requests\/sec/ {r=$2} /^Transfer\/sec/ {t=$2} END {print r, t}' "$OUT/wrk.last"
}

rss0=$(rss_kb)
row "server rss before loading" "$rss0" KiB
# Creates: a timed run, then the rest of the N objects loaded the same way.
read -r rps _ < <(wrk_run -d "${SECS}s" -s "$OUT/post.lua" "$COLL")
row "server POST create (generateName)" "$rps" req/s
count() { curl -sk -H "$AUTH" "$COLL?limit=1" | python3 -c 'import json,sys; m=json.load(sys.stdin)["metadata"]; print(m.get("remainingItemCount",0)+1)'; }
have=$(count)
if [ "$have" -lt "$N" ]; then
  wrk -t2 -c16 -d 900s -s "$OUT/post.lua" "$COLL" >/dev/null &
  LOADER=$!
  while [ "$(count)" -lt "$N" ]; do sleep 0.5; done
  kill "$LOADER" && wait "$LOADER" 2>/dev/null || true
fi
have=$(count)
# History goes: compaction and the cache's 75 s window, on the simulated clock.
curl -sk -o /dev/null -H "$AUTH" -X POST "$URL/kubesim/v1/clock/advance?ms=360000"
curl -sk -o /dev/null -H "$AUTH" -X POST "$URL/kubesim/v1/compact"
# The server gives the freed memory back on its next tick after a compaction.
sleep 1
rss1=$(rss_kb)
one=$(curl -sk -H "$AUTH" "$COLL?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["metadata"]["name"])')
json_bytes=$(curl -sk -H "$AUTH" "$COLL/$one" | wc -c)
row "server objects loaded" "$have" objects
row "server JSON per object" "$json_bytes" B
row "server rss after loading" "$rss1" KiB
row "server rss per object" "$(( (rss1 - rss0) * 1024 / have ))" B

read -r rps _ < <(wrk_run -d "${SECS}s" -s "$OUT/auth.lua" "$COLL/$one")
row "server GET one" "$rps" req/s
read -r rps tps < <(wrk_run -d "${SECS}s" -s "$OUT/auth.lua" "$COLL?limit=500")
row "server LIST page of 500" "$rps" req/s
row "server LIST page of 500 transfer" "$tps" per-s
page_bytes=$(curl -sk -H "$AUTH" "$COLL?limit=500" | wc -c)
row "server LIST page of 500 bytes" "$page_bytes" B
read -r rps tps < <(wrk_run -d "${SECS}s" -s "$OUT/auth.lua" "$COLL?resourceVersion=0")
row "server LIST all (rv=0)" "$rps" req/s
row "server LIST all (rv=0) transfer" "$tps" per-s
all_bytes=$(curl -sk -H "$AUTH" "$COLL?resourceVersion=0" | wc -c)
row "server LIST all bytes" "$all_bytes" B
