#!/usr/bin/env node
// A scripted Anthropic Messages API server for recording Claude Code with sub-agents offline
// (scripts/record/claude-subagents.sh). Adapted (provenance only; nothing here reads it) from the
// shared real-agents harness's fake-anthropic.mjs, whose script has no sub-agent.
//
//   PORT=5641 WORKDIR=/abs/workspace LOG=requests.jsonl node fake-anthropic-subagents.mjs
//
// POST /v1/messages (SSE when the request streams, else one JSON reply), POST
// /v1/messages/count_tokens; anything else is a 404 JSON error. Every request is appended to $LOG
// as one JSON line with the reply it got.
//
// Replies are scripted by conversation state, never by timing, so two sub-agents asking at once
// each get their own next step:
// - a sub-agent's conversation starts with the prompt the main loop gave its Agent/Task call, which
//   holds `SUBTASK-<X>`: it follows SUB_SCRIPTS[X], step = assistant messages so far;
// - the main loop's requests offer the Agent (or Task) tool: the turn is the `TURN-<n>` of the last
//   prompt a person sent, the step the assistant messages after it;
// - anything else (a title, a bash-prefix check, a topic check) gets a short text answer.
// After a script's last step the model answers in text and ends its turn. Tool-use ids are
// deterministic: `toolu_<who>_<step>_<n>` (`main1` … for the main loop's turns, `subA` … for the
// sub-agents), so a recording's calls can be checked against this script.
import { halves, requestLog, sendJson, serve, sse, startSse } from "./fake-server.mjs";

const PORT = Number(process.env.PORT || 5641);
const WORKDIR = process.env.WORKDIR || process.cwd();
const LOG = process.env.LOG || "fake-anthropic-subagents.requests.jsonl";
const W = (p) => `${WORKDIR}/${p}`;
const AGENT = "@AGENT@"; // replaced by whichever of Agent / Task the request offers

const agentCall = (who, description, task) => ({
  name: AGENT,
  input: { description, prompt: `SUBTASK-${who}: ${task}`, subagent_type: "general-purpose" },
});

// Each step is one model response; several tools in one step run at once.
const MAIN_SCRIPTS = {
  1: {
    steps: [
      { text: "First a look at the notes.", tools: [{ name: "Read", input: { file_path: W("notes.txt") } }] },
      {
        text: "Two helpers at once: one for the notes, one for the source.",
        tools: [
          agentCall("A", "Count TODOs in notes", "read notes.txt, find its TODO lines and count them with grep -c."),
          agentCall("B", "Survey the src folder", "list the src folder, glob its JavaScript files and read src/app.js."),
        ],
      },
      { tools: [{ name: "Bash", input: { command: "wc -l notes.txt", description: "Count lines in notes.txt" } }] },
    ],
    final: "Turn 1 done: notes.txt has TODOs (helper A counted them) and src holds app.js (helper B read it).",
  },
  2: {
    steps: [
      { tools: [{ name: "Grep", input: { pattern: "TODO", path: WORKDIR, output_mode: "content", "-n": true } }] },
      { text: "A third helper checks the README and the build.", tools: [agentCall("C", "Check README and build", "read README.md, run the build script scripts/build.js (it is missing) and grep for demo.")] },
      { tools: [{ name: "Edit", input: { file_path: W("notes.txt"), old_string: "hello there", new_string: "hello, world" } }] },
    ],
    final: "Turn 2 done: found the TODOs, helper C found no build script, and the greeting is fixed.",
  },
  3: {
    steps: [
      {
        text: "A failing command and a glob at once.",
        tools: [
          { name: "Bash", input: { command: "cat missing-file.txt", description: "Show a file that does not exist" } },
          { name: "Glob", input: { pattern: "**/*.md" } },
        ],
      },
      { tools: [{ name: "Write", input: { file_path: W("out/summary.txt"), content: "todos: 2\nbuild: missing\n" } }] },
    ],
    final: "Turn 3 done: missing-file.txt does not exist, the markdown files are listed and out/summary.txt is written.",
  },
};

const SUB_SCRIPTS = {
  A: {
    steps: [
      { tools: [{ name: "Read", input: { file_path: W("notes.txt") } }] },
      { tools: [{ name: "Grep", input: { pattern: "TODO", path: W("notes.txt"), output_mode: "content", "-n": true } }] },
      { tools: [{ name: "Bash", input: { command: "grep -c TODO notes.txt", description: "Count TODO lines" } }] },
    ],
    final: "notes.txt has 2 TODO lines.",
  },
  B: {
    steps: [
      { tools: [{ name: "Bash", input: { command: "ls src", description: "List the src folder" } }] },
      { tools: [{ name: "Glob", input: { pattern: "src/**/*.js" } }] },
      { tools: [{ name: "Read", input: { file_path: W("src/app.js") } }] },
    ],
    final: "src holds app.js, which exports add(a, b).",
  },
  C: {
    steps: [
      { tools: [{ name: "Read", input: { file_path: W("README.md") } }] },
      { tools: [{ name: "Bash", input: { command: "node scripts/build.js", description: "Run the build script" } }] },
      { tools: [{ name: "Grep", input: { pattern: "demo", path: WORKDIR, output_mode: "files_with_matches" } }] },
    ],
    final: "README.md says demo; scripts/build.js does not exist, so the build fails.",
  },
};

const log = requestLog(LOG);
const textOf = (message) =>
  typeof message?.content === "string"
    ? message.content
    : Array.isArray(message?.content)
      ? message.content.filter((b) => b?.type === "text").map((b) => b.text).join("\n")
      : "";
const hasToolResult = (message) => Array.isArray(message?.content) && message.content.some((b) => b?.type === "tool_result");

function reply(who, script, step, tools) {
  if (step >= script.steps.length) return { content: [{ type: "text", text: script.final }], stop: "end_turn", kind: `${who}:final` };
  const s = script.steps[step];
  const agentTool = tools.includes("Agent") ? "Agent" : "Task";
  const content = [];
  if (s.text) content.push({ type: "text", text: s.text });
  s.tools.forEach((t, n) => {
    content.push({ type: "tool_use", id: `toolu_${who}_${step}_${n + 1}`, name: t.name === AGENT ? agentTool : t.name, input: t.input });
  });
  return { content, stop: "tool_use", kind: `${who}:step${step}` };
}

function buildContent(req) {
  const tools = Array.isArray(req.tools) ? req.tools.map((t) => t.name) : [];
  const messages = Array.isArray(req.messages) ? req.messages : [];
  const assistants = (list) => list.filter((m) => m.role === "assistant").length;
  const sub = /SUBTASK-([A-Z])/.exec(textOf(messages[0]))?.[1];
  if (sub && SUB_SCRIPTS[sub] && tools.length > 0) return reply(`sub${sub}`, SUB_SCRIPTS[sub], assistants(messages), tools);
  if (tools.includes("Agent") || tools.includes("Task")) {
    let last = -1;
    let turn = 0;
    messages.forEach((m, i) => {
      if (m.role !== "user" || hasToolResult(m)) return;
      const found = /TURN-(\d)/.exec(textOf(m));
      if (found) {
        last = i;
        turn = Number(found[1]);
      }
    });
    const script = MAIN_SCRIPTS[turn];
    if (script) return reply(`main${turn}`, script, assistants(messages.slice(last + 1)), tools);
  }
  const sys = JSON.stringify(req.system ?? "");
  let text = "OK";
  if (/title/i.test(sys)) text = '{"title": "Scripted session with sub-agents"}';
  else if (/prefix/i.test(sys)) text = "none";
  else if (/new (conversation )?topic/i.test(sys)) text = '{"isNewTopic": false, "title": null}';
  return { content: [{ type: "text", text }], stop: "end_turn", kind: "side" };
}

serve(
  PORT,
  ({ method, url, parsed }, res) => {
    if (method === "POST" && url.startsWith("/v1/messages/count_tokens")) {
      log({ method, url, kind: "count_tokens" });
      sendJson(res, 200, { input_tokens: 1234 });
      return;
    }
    if (method === "POST" && url.startsWith("/v1/messages")) {
      const { content, stop, kind } = buildContent(parsed || {});
      log({ method, url, kind, stream: !!parsed?.stream, model: parsed?.model, tools: (parsed?.tools ?? []).map((t) => t.name), body: parsed, reply: content });
      const id = `msg_fake_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
      const model = parsed?.model || "claude-sonnet-4-5";
      const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      if (!parsed?.stream) {
        sendJson(res, 200, { id, type: "message", role: "assistant", model, content, stop_reason: stop, stop_sequence: null, usage }, { "request-id": `req_${id}` });
        return;
      }
      const event = (data) => sse(res, data, data.type);
      startSse(res, { "request-id": `req_${id}` });
      event({
        type: "message_start",
        message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
      });
      event({ type: "ping" });
      content.forEach((block, index) => {
        if (block.type === "text") {
          event({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
          for (const part of halves(block.text)) {
            if (part) event({ type: "content_block_delta", index, delta: { type: "text_delta", text: part } });
          }
        } else {
          event({ type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
          for (const part of halves(JSON.stringify(block.input))) {
            event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } });
          }
        }
        event({ type: "content_block_stop", index });
      });
      event({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } });
      event({ type: "message_stop" });
      res.end();
      return;
    }
    log({ method, url, kind: "unhandled" });
    sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `fake server: no ${method} ${url}` } });
  },
  () => console.error(`fake-anthropic-subagents on http://127.0.0.1:${PORT} (workdir ${WORKDIR}, log ${LOG})`),
);
