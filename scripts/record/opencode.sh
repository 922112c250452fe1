#!/usr/bin/env bash
# Records a real OpenCode session offline: OpenCode from npm (`opencode-ai`, whose linux-x64
# binary comes from the registry as `opencode-linux-x64`), run headless (`opencode run`) with a
# scratch HOME and XDG folders, against scripts/record/fake-openai-chat.mjs on 127.0.0.1 as a
# custom OpenAI-compatible provider. Leaves OpenCode's own database (and a VACUUMed copy, made with
# the sqlite3 CLI) in OUT/<script>/.
#
#   scripts/record/opencode.sh OUT [main|heldout]
#
# Variables: OPENCODE_VERSION (1.18.33), OPENCODE_BIN (an installed `opencode`; else installed
# into OUT/pkg with npm), PORT (5640), AGENT_TIMEOUT (seconds, 240).
set -euo pipefail
OUT=${1:?usage: opencode.sh OUT [main|heldout]}
WHICH=${2:-main}
VERSION=${OPENCODE_VERSION:-1.18.33}
PORT=${PORT:-5640}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

if [ -z "${OPENCODE_BIN:-}" ]; then
  if [ ! -x "$OUT/pkg/node_modules/.bin/opencode" ]; then
    mkdir -p "$OUT/pkg"
    (cd "$OUT/pkg" && npm init -y >/dev/null && npm install --no-fund --no-audit "opencode-ai@$VERSION" >/dev/null)
  fi
  OPENCODE_BIN="$OUT/pkg/node_modules/.bin/opencode"
fi

RUN="$OUT/$WHICH"
rm -rf "$RUN"
mkdir -p "$RUN/home" "$RUN/ws/src"
WS="$RUN/ws"
printf 'hello there\nTODO: water the plants\n' > "$WS/notes.txt"
printf 'console.log("hi");\n// TODO: more\n' > "$WS/src/app.js"
printf '# Demo\n\nA tiny demo app.\n' > "$WS/README.md"
(cd "$WS" && git init -q && git add -A && git -c user.name=r -c user.email=r@example.invalid commit -qm init)

cat > "$WS/opencode.json" <<JSON
{
  "\$schema": "https://opencode.ai/config.json",
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Fake",
      "options": { "baseURL": "http://127.0.0.1:$PORT/v1", "apiKey": "fake-key" },
      "models": { "fake-model": { "name": "Fake model", "tool_call": true, "reasoning": true, "limit": { "context": 100000, "output": 4000 } } }
    }
  },
  "model": "fake/fake-model",
  "small_model": "fake/fake-model",
  "autoupdate": false,
  "share": "disabled",
  "permission": { "edit": "allow", "bash": "allow", "webfetch": "allow" }
}
JSON

PORT=$PORT WORKDIR="$WS" LOG="$RUN/requests.jsonl" SCRIPT="$WHICH" node "$HERE/fake-openai-chat.mjs" 2>"$RUN/fake.log" &
FAKE=$!
trap 'kill $FAKE 2>/dev/null || true' EXIT
sleep 0.5

export HOME="$RUN/home" XDG_DATA_HOME="$RUN/home/.local/share" XDG_CONFIG_HOME="$RUN/home/.config" \
  XDG_CACHE_HOME="$RUN/home/.cache" XDG_STATE_HOME="$RUN/home/.local/state" \
  OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_SHARE=1 \
  OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_CLAUDE_CODE=1
PROMPT="Please tidy up notes.txt and report on the workspace."
[ "$WHICH" = heldout ] && PROMPT="Check the app and add a small extra module."
(cd "$WS" && timeout "${AGENT_TIMEOUT:-240}" "$OPENCODE_BIN" run --print-logs --format json --model fake/fake-model "$PROMPT" \
  >"$RUN/run.jsonl" 2>"$RUN/run.stderr") || echo "opencode run exited $?" >&2

DB="$XDG_DATA_HOME/opencode/opencode.db"
ls -la "$XDG_DATA_HOME/opencode" >&2 || true
if [ -f "$DB" ]; then
  # The files as OpenCode left them (raw/), and a small copy (needs the sqlite3 CLI, which
  # checkpoints the WAL of the copy it opens): the WAL checkpointed into it, free pages dropped.
  mkdir -p "$RUN/raw" "$RUN/tmp"
  for f in "$DB" "$DB-wal" "$DB-shm"; do [ -f "$f" ] && cp "$f" "$RUN/raw/" && cp "$f" "$RUN/tmp/"; done
  sqlite3 "$RUN/tmp/opencode.db" "VACUUM INTO '$RUN/opencode.db'"
  rm -rf "$RUN/tmp"
fi
echo "recorded: $RUN" >&2
