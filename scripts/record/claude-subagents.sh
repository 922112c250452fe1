#!/usr/bin/env bash
# Records a real Claude Code session with sub-agents offline: Claude Code 2.1.83 inside the
# published ACP adapter @zed-industries/claude-agent-acp 0.23.1, driven by the published ACP client
# acpx 0.19.1 through `loupe tee`, against scripts/record/fake-anthropic-subagents.mjs on
# 127.0.0.1 (the only fake part: the model). Three prompts to one session (three turns); the script
# has the main loop start two sub-agents at once in turn 1 and one more in turn 2, each making
# tool calls of its own. Leaves in OUT:
#   capture.acp.jsonl               what tee saw (ACP, both directions)
#   native/<session>.jsonl          Claude Code's own log of the session, and
#   native/<session>/subagents/     its sub-agents' files (agent-<id>.jsonl, agent-<id>.meta.json)
#   requests.jsonl                  every request to the fake model with the reply it got
#   acpx-*.stdout/.stderr, fake.log the client's and the server's output
#
#   scripts/record/claude-subagents.sh OUT
#
# Variables: LOUPE (a built bin/loupe.mjs; default this checkout's), AGENTS (where the pinned
# client and adapter are, or get installed with npm; default OUT/pkg), PORT (5641),
# AGENT_TIMEOUT (seconds per prompt, 240). Needs node, npm, timeout. Nothing leaves 127.0.0.1.
set -euo pipefail
OUT=${1:?usage: claude-subagents.sh OUT}
HERE=$(cd "$(dirname "$0")" && pwd)
LOUPE=${LOUPE:-$HERE/../../bin/loupe.mjs}
PORT=${PORT:-5641}
TIMEOUT=${AGENT_TIMEOUT:-240}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
AGENTS=${AGENTS:-$OUT/pkg}

if [ ! -f "$AGENTS/node_modules/acpx/dist/cli.js" ] || [ ! -f "$AGENTS/node_modules/@zed-industries/claude-agent-acp/dist/index.js" ]; then
  mkdir -p "$AGENTS"
  (cd "$AGENTS" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-fund --no-audit @zed-industries/claude-agent-acp@0.23.1 acpx@0.19.1 >/dev/null)
fi
ACPX="$AGENTS/node_modules/acpx/dist/cli.js"
ADAPTER="$AGENTS/node_modules/@zed-industries/claude-agent-acp/dist/index.js"

RUN="$OUT/run"
rm -rf "$RUN" "$OUT/native" "$OUT/capture.acp.jsonl" "$OUT/requests.jsonl"
mkdir -p "$RUN/home" "$RUN/ws/src" "$OUT/native"
WS="$RUN/ws"
printf 'hello there\nTODO: water the plants\nTODO: call mum\n' >"$WS/notes.txt"
printf '// TODO: handle errors\nexport function add(a, b) {\n  return a + b;\n}\n' >"$WS/src/app.js"
printf '# demo\n\nA tiny demo app.\n' >"$WS/README.md"

PORT=$PORT WORKDIR="$WS" LOG="$OUT/requests.jsonl" node "$HERE/fake-anthropic-subagents.mjs" 2>"$OUT/fake.log" &
FAKE=$!
trap 'kill $FAKE 2>/dev/null || true' EXIT
AGENT_CMD="node $LOUPE tee --out $OUT/capture.acp.jsonl -- node $ADAPTER"
for _ in $(seq 50); do (echo >/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break; sleep 0.1; done

# IS_SANDBOX unset: claude-agent-acp reads any value as "sandboxed root", which Claude Code 2.1.83
# refuses unless it is exactly 1: the recorder leaves it unset.
ACPX_ENV=(env -u IS_SANDBOX HOME="$RUN/home" DISABLE_AUTOUPDATER=1 ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT"
  ANTHROPIC_API_KEY=sk-test-0000 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1)
acpx() { (cd "$WS" && "${ACPX_ENV[@]}" timeout $((TIMEOUT + 60)) node "$ACPX" --approve-all --format json --timeout "$TIMEOUT" --cwd "$WS" --agent "$AGENT_CMD" "$@"); }

acpx sessions new >"$OUT/acpx-new.stdout" 2>"$OUT/acpx-new.stderr"
n=0
for prompt in \
  "TURN-1: Look at the notes and the source; use helpers for the two surveys." \
  "TURN-2: Find the TODOs, have a helper check the README and the build, then fix the greeting." \
  "TURN-3: Try the missing file, list the markdown files and write a summary."; do
  n=$((n + 1))
  acpx prompt "$prompt" >"$OUT/acpx-turn$n.stdout" 2>"$OUT/acpx-turn$n.stderr" || echo "acpx prompt $n exited $?" >&2
done
# acpx keeps the agent (and tee) running between prompts; closing the session ends them.
acpx sessions close >"$OUT/acpx-close.stdout" 2>"$OUT/acpx-close.stderr" || echo "acpx sessions close exited $?" >&2
for _ in $(seq 50); do pgrep -f "tee --out $OUT/capture.acp.jsonl" >/dev/null || break; sleep 0.2; done

# Claude Code's own log: ~/.claude/projects/<dashed cwd>/<session>.jsonl and <session>/subagents/.
PROJECT=$(find "$RUN/home/.claude/projects" -mindepth 1 -maxdepth 1 -type d | head -1)
cp -r "$PROJECT"/. "$OUT/native/"
find "$OUT/native" -type f | sort >&2
echo "recorded: $OUT (workspace $WS)" >&2
