#!/usr/bin/env node
// A scripted OpenAI Responses API server for recording Codex with sub-agents offline
// (scripts/record/codex-subagents.sh). Adapted (provenance only; nothing here reads it) from the
// shared real-agents harness's fake-openai.mjs, whose script has no sub-agent.
//
//   PORT=5642 WORKDIR=/abs/workspace LOG=requests.jsonl node fake-openai-subagents.mjs
//
// POST /v1/responses (SSE), GET /v1/models (an empty list); anything else is a 404. Every request
// is appended to $LOG as one JSON line with the reply it got.
//
// Replies are scripted by conversation state: a request whose `input` holds a message (not a
// call's arguments) naming `SUBTASK-<X>` is sub-agent X's conversation, at step 1 + the highest
// step of its `call_sub<X>_<step>_<n>` calls so far; any other request offering exec_command is the
// main loop's, at 1 + the highest step of its `call_fake_<step>_<n>` calls. Sub-agent A starts with
// no history (`fork_turns: "none"`), B as a fork of the main thread (`fork_turns: "all"`: its
// rollout copies the parent's history). Requests offering no exec_command get a short text.
import { halves, requestLog, sendJson, serve, sse, startSse } from "./fake-server.mjs";

const PORT = Number(process.env.PORT || 5642);
const WORKDIR = process.env.WORKDIR || process.cwd();
const LOG = process.env.LOG || "fake-openai-subagents.requests.jsonl";
const log = requestLog(LOG);

const exec = (cmd) => ({ name: "exec_command", args: { cmd, workdir: WORKDIR } });
const spawn = (who, forkTurns, task) => ({ name: "spawn_agent", args: { task_name: `helper_${who.toLowerCase()}`, message: `SUBTASK-${who}: ${task}`, fork_turns: forkTurns } });

const MAIN = {
  steps: [
    { text: "Reading the notes first.", calls: [exec("cat notes.txt")] },
    {
      text: "Two helpers at once.",
      calls: [
        spawn("A", "none", "count the lines of notes.txt, then show missing.txt."),
        spawn("B", "all", "list the TODO lines in notes.txt with their numbers."),
      ],
    },
    { calls: [{ name: "wait_agent", args: { timeout_ms: 30000 } }] },
    { calls: [{ name: "wait_agent", args: { timeout_ms: 30000 } }] },
    { calls: [exec("ls does-not-exist")] },
  ],
  final: "Done: read notes.txt, two helpers counted and listed its TODOs, and does-not-exist is not there.",
};
const SUBS = {
  A: { steps: [{ calls: [exec("wc -l notes.txt")] }, { calls: [exec("cat missing.txt")] }], final: "notes.txt has 3 lines; missing.txt does not exist." },
  B: { steps: [{ calls: [exec("grep -n TODO notes.txt")] }], final: "TODO lines: 2 and 3." },
};

const textOf = (item) =>
  typeof item?.content === "string" ? item.content : Array.isArray(item?.content) ? item.content.map((c) => (typeof c?.text === "string" ? c.text : "")).join("\n") : "";

function stepOf(input, prefix) {
  let max = -1;
  for (const item of input || []) {
    const m = typeof item?.call_id === "string" && new RegExp(`^${prefix}_(\\d+)_`).exec(item.call_id);
    if (m && item.type === "function_call") max = Math.max(max, Number(m[1]));
  }
  return max + 1;
}

let n = 0;
function reply(who, prefix, script, step) {
  if (step >= script.steps.length) return { kind: `${who}:final`, items: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: script.final, annotations: [] }] }] };
  const s = script.steps[step];
  const items = [];
  if (s.text) items.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: s.text, annotations: [] }] });
  for (const call of s.calls) {
    n += 1;
    items.push({ type: "function_call", name: call.name, call_id: `${prefix}_${step}_${n}`, arguments: JSON.stringify(call.args) });
  }
  return { kind: `${who}:step${step}`, items };
}

function script(body) {
  const tools = new Set((body?.tools || []).map((t) => t.name || t.type));
  const input = body?.input || [];
  if (!tools.has("exec_command")) return { kind: "side", items: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "OK", annotations: [] }] }] };
  let sub;
  for (const item of input) {
    if (item?.type !== "message") continue;
    const m = /SUBTASK-([A-Z])/.exec(textOf(item));
    if (m) sub = m[1];
  }
  if (sub && SUBS[sub]) return reply(`sub${sub}`, `call_sub${sub}`, SUBS[sub], stepOf(input, `call_sub${sub}`));
  return reply("main", "call_fake", MAIN, stepOf(input, "call_fake"));
}

serve(
  PORT,
  ({ method, url, body, parsed }, res) => {
    if (method === "GET" && url.startsWith("/v1/models")) {
      log({ method, url, kind: "models" });
      sendJson(res, 200, { object: "list", data: [], models: [] });
      return;
    }
    if (method === "POST" && url.startsWith("/v1/responses")) {
      const { kind, items } = script(parsed);
      log({ method, url, kind, model: parsed?.model, tools: (parsed?.tools || []).map((t) => t.name || t.type), body: parsed, reply: items });
      const id = `resp_fake_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
      const event = (data) => sse(res, data, data.type);
      startSse(res);
      event({ type: "response.created", response: { id, object: "response", status: "in_progress", model: parsed?.model } });
      items.forEach((item, output_index) => {
        const itemId = `item_${id}_${output_index}`;
        const full = { id: itemId, status: "completed", ...item };
        if (item.type === "message") {
          event({ type: "response.output_item.added", output_index, item: { ...full, status: "in_progress", content: [] } });
          for (const delta of halves(item.content[0].text)) {
            if (delta) event({ type: "response.output_text.delta", item_id: itemId, output_index, content_index: 0, delta });
          }
        } else {
          event({ type: "response.output_item.added", output_index, item: full });
        }
        event({ type: "response.output_item.done", output_index, item: full });
      });
      event({
        type: "response.completed",
        response: {
          id,
          object: "response",
          status: "completed",
          model: parsed?.model,
          output: [],
          usage: {
            input_tokens: 100,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 20,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 120,
          },
        },
      });
      res.end();
      return;
    }
    log({ method, url, kind: "unhandled", body: parsed ?? body });
    sendJson(res, 404, { error: { message: `fake server: no ${method} ${url}`, type: "invalid_request_error" } });
  },
  () => console.error(`fake-openai-subagents listening on http://127.0.0.1:${PORT} (workdir ${WORKDIR}, log ${LOG})`),
);
