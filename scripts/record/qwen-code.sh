#!/usr/bin/env bash
# Records a real Qwen Code session against a scripted local model (fake-chat-completions.mjs),
# and copies Qwen Code's own chat log (and its sub-agents' files, if any) out of a scratch HOME.
#
#   scripts/record/qwen-code.sh [main|heldout] [OUT_DIR]
#
# Needs the published CLI installed outside the repo:
#   npm i --prefix /tmp/qwen-agent @qwen-code/qwen-code@0.24.4
# QWEN_PKG overrides where it is. Nothing leaves 127.0.0.1.
set -euo pipefail
VARIANT="${1:-main}"
OUT="${2:-/tmp/qwen-record-$VARIANT}"
HERE="$(cd "$(dirname "$0")" && pwd)"
QWEN_PKG="${QWEN_PKG:-/tmp/qwen-agent/node_modules/@qwen-code/qwen-code}"
PORT="${PORT:-5633}"
VERSION="$(node -p "require('$QWEN_PKG/package.json').version")"

SCRATCH="$(mktemp -d /tmp/qwen-rec.XXXXXX)"
export HOME="$SCRATCH/home"
WS="$SCRATCH/ws"
mkdir -p "$HOME/.qwen" "$WS" "$OUT"

# The workspace the script works on.
if [ "$VARIANT" = main ]; then
  printf 'hello there\nTODO: water the plants\nTODO: call mum\n' > "$WS/notes.txt"
  mkdir -p "$WS/src" && printf "console.log('hi')\n" > "$WS/src/app.js"
  PROMPT="Tidy my notes: read notes.txt, look around, fix the greeting, write out/result.txt, try a couple of commands and have a helper count the TODOs."
else
  mkdir -p "$WS/src" && printf "console.log('hi')\n// TODO: greet properly\n" > "$WS/src/app.js"
  printf '# demo\n' > "$WS/README.md"
  PROMPT="Make the app say hello instead of hi, note it in a changelog, and check nothing else still says hi."
fi

# Settings: an OpenAI-compatible provider on the fake server; no telemetry, no update checks.
cat > "$HOME/.qwen/settings.json" <<JSON
{
  "security": { "auth": { "selectedType": "openai" } },
  "model": { "name": "fake-model" },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "tools": { "listDirectory": { "enabled": true } },
  "general": { "disableAutoUpdate": true, "disableUpdateNag": true }
}
JSON

LOG="$OUT/requests.jsonl"
: > "$LOG"
PORT="$PORT" WORKDIR="$WS" LOG="$LOG" SCRIPT="$VARIANT" node "$HERE/fake-chat-completions.mjs" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
sleep 1

cd "$WS"
git init -q . 2>/dev/null || true
set +e
OPENAI_BASE_URL="http://127.0.0.1:$PORT/v1" OPENAI_API_KEY="sk-fake" OPENAI_MODEL="fake-model" \
  timeout 300 node "$QWEN_PKG/cli-entry.js" --approval-mode yolo --auth-type openai -m fake-model \
  --openai-base-url "http://127.0.0.1:$PORT/v1" --openai-api-key sk-fake \
  -p "$PROMPT" > "$OUT/stdout.txt" 2> "$OUT/stderr.txt"
echo "qwen exited $?" | tee "$OUT/exit.txt"
set -e

# Qwen Code's own log: ~/.qwen/projects/<dashed cwd>/chats/<session>.jsonl (+ sub-agents).
find "$HOME/.qwen" -type f | sort > "$OUT/files.txt"
cp -r "$HOME/.qwen/projects" "$OUT/projects" 2>/dev/null || true
echo "qwen-code $VERSION; workspace $WS; home $HOME"
cat "$OUT/files.txt"
