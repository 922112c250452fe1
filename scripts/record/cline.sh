#!/usr/bin/env bash
# Records a real Cline session offline: the Cline CLI from npm (`cline`, whose linux-x64 binary
# comes from the registry as `@cline/cli-linux-x64`), run headless (`cline --json PROMPT`, tools
# auto-approved, its default) with a scratch HOME and workspace, against
# scripts/record/fake-openai-chat.mjs playing cline-scripts.mjs on 127.0.0.1 as an OpenAI-compatible
# provider (`cline auth -p openai -b URL`). Leaves Cline's own data folder in OUT/<script>/cline-data.
#
#   scripts/record/cline.sh OUT [main|heldout]
#
# Variables: CLINE_VERSION (3.0.65), CLINE_BIN (an installed `cline`; else installed into
# OUT/pkg with npm), PORT (5652), AGENT_TIMEOUT (seconds, 240).
# CLINE_SESSION_BACKEND_MODE=local keeps the run in this process: without it Cline starts a hub
# daemon that outlives the run.
set -euo pipefail
OUT=${1:?usage: cline.sh OUT [main|heldout]}
WHICH=${2:-main}
VERSION=${CLINE_VERSION:-3.0.65}
PORT=${PORT:-5652}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

if [ -z "${CLINE_BIN:-}" ]; then
  if [ ! -x "$OUT/pkg/node_modules/.bin/cline" ]; then
    mkdir -p "$OUT/pkg"
    (cd "$OUT/pkg" && npm init -y >/dev/null && npm install --no-fund --no-audit "cline@$VERSION" >/dev/null)
  fi
  CLINE_BIN="$OUT/pkg/node_modules/.bin/cline"
fi

RUN="$OUT/$WHICH"
rm -rf "$RUN"
mkdir -p "$RUN/home" "$RUN/ws/src"
WS="$RUN/ws"
printf 'hello there\nTODO: water the plants\nTODO: call mum\n' > "$WS/notes.txt"
printf "console.log('hi')\n// TODO: greet properly\n" > "$WS/src/app.js"
printf '# Demo\n\nA tiny demo app.\n' > "$WS/README.md"
(cd "$WS" && git init -q && git add -A && git -c user.name=r -c user.email=r@example.invalid commit -qm init)

PORT=$PORT WORKDIR="$WS" LOG="$RUN/requests.jsonl" SCRIPT="$WHICH" SCRIPTS="$HERE/cline-scripts.mjs" \
  node "$HERE/fake-openai-chat.mjs" 2>"$RUN/fake.log" &
FAKE=$!
trap 'kill $FAKE 2>/dev/null || true' EXIT
sleep 0.5

export HOME="$RUN/home" CLINE_SESSION_BACKEND_MODE=local CLINE_NO_AUTO_UPDATE=1
"$CLINE_BIN" auth -p openai -k sk-fake -m fake-model -b "http://127.0.0.1:$PORT/v1" >"$RUN/auth.txt" 2>&1
PROMPT="Please tidy up notes.txt and report on the workspace."
[ "$WHICH" = heldout ] && PROMPT="Make the app say hello instead of hi and note it in a changelog."
(cd "$WS" && timeout "${AGENT_TIMEOUT:-240}" "$CLINE_BIN" --json "$PROMPT" >"$RUN/run.jsonl" 2>"$RUN/run.stderr") \
  || echo "cline exited $?" >&2

cp -r "$HOME/.cline/data" "$RUN/cline-data"
find "$RUN/cline-data" -type f | sort >&2
echo "recorded: $RUN (cline $("$CLINE_BIN" --version))" >&2
