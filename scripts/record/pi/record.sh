#!/usr/bin/env bash
# Records Pi (@mariozechner/pi-coding-agent) for real, offline: the real CLI in print mode against
# a scripted fake Chat Completions server (fake-chat.mjs) on 127.0.0.1, with a scratch HOME and
# workspace. Writes Pi's own session files (~/.pi/agent/sessions/--<cwd>--/*.jsonl) to OUT.
#
#   scripts/record/pi/record.sh OUT [main|heldout]
#
# main: two turns (`pi -p`, then `pi -p -c`), then a branch made in place as `/tree` makes it
# (branch.mjs, Pi's SDK). heldout: one turn of another script.
# PI_DIR: where Pi is installed (default /tmp/pi-agent; installed there with npm when missing).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$(mkdir -p "${1:?OUT}" && cd "$1" && pwd)"
WHAT="${2:-main}"
PI_DIR="${PI_DIR:-/tmp/pi-agent}"
PORT="${PORT:-5631}"
PKG="$PI_DIR/node_modules/@mariozechner/pi-coding-agent"
[ -d "$PKG" ] || npm i --prefix "$PI_DIR" --no-fund --no-audit @mariozechner/pi-coding-agent >&2
PI="$PI_DIR/node_modules/.bin/pi"

SCRATCH="$(mktemp -d /tmp/pi-record.XXXXXX)"
export HOME="$SCRATCH/home" PI_OFFLINE=1 PI_SKIP_VERSION_CHECK=1
WS="$SCRATCH/ws"
mkdir -p "$HOME/.pi/agent" "$WS/src"
printf 'hello there\nTODO: water the plants\n' > "$WS/notes.txt"
printf 'console.log("app");\n// TODO: more\n' > "$WS/src/app.js"
printf '# Demo\n' > "$WS/README.md"
cat > "$HOME/.pi/agent/models.json" <<JSON
{"providers":{"fake":{"baseUrl":"http://127.0.0.1:$PORT/v1","api":"openai-completions","apiKey":"fake-key",
 "compat":{"supportsDeveloperRole":false,"supportsReasoningEffort":false},
 "models":[{"id":"fake-model","name":"Fake Model","reasoning":false,"contextWindow":128000,"maxTokens":4096,
 "cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75}}]}}}
JSON

server() { SCRIPT="$1" N0="$2" PORT="$PORT" LOG="$OUT/requests-$1.jsonl" node "$HERE/fake-chat.mjs" & SERVER=$!; sleep 0.5; }
stop() { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; }
trap stop EXIT
run() { (cd "$WS" && timeout 120 "$PI" --provider fake --model fake-model --tools read,bash,edit,write,grep,find,ls "$@"); }

if [ "$WHAT" = main ]; then
  server main 0
  run -p "Please tidy up notes.txt and report on the workspace."
  run -p -c "How many lines do the two files have now?"
  stop
  server branch 100
  FILE="$(ls "$HOME"/.pi/agent/sessions/*/*.jsonl)"
  (cd "$WS" && PI_PKG="$PKG" node "$HERE/branch.mjs" "$FILE" "What is the first line of notes.txt now?")
  stop
else
  server heldout 0
  run -p "Add a small util module and check the app."
  stop
fi
cp "$HOME"/.pi/agent/sessions/*/*.jsonl "$OUT/"
grep '"version"' "$PKG/package.json" | head -1 >&2
echo "$SCRATCH" >&2
ls "$OUT"
