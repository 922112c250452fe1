#!/usr/bin/env bash
# Records a real Codex session with sub-agents offline: Codex 0.137.0 inside the published ACP
# adapter @zed-industries/codex-acp 0.16.0 (its multi-agent tools turned on: `[features]
# multi_agent_v2 = true`), driven by the published ACP client acpx 0.19.1 through `loupe tee`,
# against scripts/record/fake-openai-subagents.mjs on 127.0.0.1 (the model is the only fake part).
# The main thread spawns two sub-agents at once, one with no history and one forked from it (its
# rollout copies the main thread's history), waits for them and runs one more command. Leaves in OUT:
#   capture.acp.jsonl       what tee saw (ACP, both directions)
#   rollouts/               Codex's own rollouts of the run (~/.codex/sessions/YYYY/MM/DD/*.jsonl)
#   requests.jsonl          every request to the fake model with the reply it got
#
#   scripts/record/codex-subagents.sh OUT
#
# Variables: LOUPE (a built bin/loupe.mjs; default this checkout's), AGENTS (where the pinned
# client and adapter are, or get installed with npm; default OUT/pkg), PORT (5642),
# AGENT_TIMEOUT (seconds, 240). Needs node, npm, timeout. Nothing leaves 127.0.0.1.
set -euo pipefail
OUT=${1:?usage: codex-subagents.sh OUT}
HERE=$(cd "$(dirname "$0")" && pwd)
LOUPE=${LOUPE:-$HERE/../../bin/loupe.mjs}
PORT=${PORT:-5642}
TIMEOUT=${AGENT_TIMEOUT:-240}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
AGENTS=${AGENTS:-$OUT/pkg}
PLATFORM=$(node -p 'process.platform + "-" + process.arch')

if [ ! -f "$AGENTS/node_modules/acpx/dist/cli.js" ] || [ ! -x "$AGENTS/node_modules/@zed-industries/codex-acp-$PLATFORM/bin/codex-acp" ]; then
  mkdir -p "$AGENTS"
  (cd "$AGENTS" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-fund --no-audit @zed-industries/codex-acp@0.16.0 acpx@0.19.1 >/dev/null)
fi
ACPX="$AGENTS/node_modules/acpx/dist/cli.js"
CODEX_ACP="$AGENTS/node_modules/@zed-industries/codex-acp-$PLATFORM/bin/codex-acp"

RUN="$OUT/run"
rm -rf "$RUN" "$OUT/rollouts" "$OUT/capture.acp.jsonl" "$OUT/requests.jsonl"
mkdir -p "$RUN/home/.codex" "$RUN/ws" "$OUT/rollouts"
WS="$RUN/ws"
printf 'hello there\nTODO: water the plants\nTODO: call mum\n' >"$WS/notes.txt"
# As the shared real-agents harness configures Codex (its codex-config.toml says why), plus the multi-agent tools.
cat >"$RUN/home/.codex/config.toml" <<TOML
model = "gpt-5.3-codex"
model_provider = "fake"
approval_policy = "untrusted"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[features]
multi_agent_v2 = true

[model_providers.fake]
name = "Fake OpenAI (local)"
base_url = "http://127.0.0.1:$PORT/v1"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
requires_openai_auth = false
request_max_retries = 0
stream_max_retries = 0

[projects."$WS"]
trust_level = "trusted"
TOML

PORT=$PORT WORKDIR="$WS" LOG="$OUT/requests.jsonl" node "$HERE/fake-openai-subagents.mjs" 2>"$OUT/fake.log" &
FAKE=$!
trap 'kill $FAKE 2>/dev/null || true' EXIT
for _ in $(seq 50); do (echo >/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break; sleep 0.1; done

(cd "$WS" && env -u IS_SANDBOX HOME="$RUN/home" OPENAI_API_KEY=sk-test-0000 timeout $((TIMEOUT + 60)) node "$ACPX" --approve-all --format json \
  --timeout "$TIMEOUT" --cwd "$WS" --agent "node $LOUPE tee --out $OUT/capture.acp.jsonl -- $CODEX_ACP" \
  exec "Count and list the TODOs in notes.txt with two helpers." >"$OUT/acpx.stdout" 2>"$OUT/acpx.stderr") || echo "acpx exited $?" >&2

find "$RUN/home/.codex/sessions" -name '*.jsonl' -exec cp {} "$OUT/rollouts/" \;
ls -la "$OUT/rollouts" >&2
echo "recorded: $OUT (workspace $WS)" >&2
