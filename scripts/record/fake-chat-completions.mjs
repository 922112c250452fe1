#!/usr/bin/env node
// A scripted OpenAI-compatible Chat Completions server for recording Qwen Code offline
// (scripts/record/qwen-code.sh). Adapted (provenance only; nothing here reads it) from the shared real-agents harness's fake-openai.mjs, which
// speaks the Responses API; Qwen Code speaks Chat Completions.
//
//   PORT=5633 WORKDIR=/abs/workspace LOG=requests.jsonl SCRIPT=main node fake-chat-completions.mjs
//
// POST /v1/chat/completions (streamed as SSE when the request asks, else one JSON reply);
// GET /v1/models lists one model. Every request is appended to $LOG as one JSON line.
//
// The reply is scripted by conversation state: each tool call the model makes has the id
// `call_fake_<step>_<n>`, so the next step is 1 + the highest step already in `messages`.
// A request whose first user message holds SUBAGENT_MARK is the sub-agent's conversation and
// follows SUB_SCRIPT (ids `call_sub_<step>_<n>`). Any other request (a title, a summary, a
// classifier) gets a short plain answer. Tool names are chosen from the request's `tools`.
import { chatChunk, chatUsageChunk, nowSeconds, requestLog, sendJson, serve, sse, sseDone, startSse } from "./fake-server.mjs";

const PORT = Number(process.env.PORT || 5633);
const WORKDIR = process.env.WORKDIR || process.cwd();
const LOG = process.env.LOG || "fake-chat-completions.requests.jsonl";
const VARIANT = process.env.SCRIPT || "main";
const log = requestLog(LOG);
const SUBAGENT_MARK = "SUBAGENT-TASK";

const p = (name) => `${WORKDIR}/${name}`;

// A step: { text?, calls: [[toolName | [names…], args]] } — the first name the request offers is used.
const SCRIPTS = {
  main: [
    { text: "Reading the notes first.", calls: [[["read_file"], { file_path: p("notes.txt") }]] },
    { calls: [[["list_directory", "ls"], { path: WORKDIR }]] },
    { calls: [[["read_file"], { file_path: p("missing.txt") }]] },
    { calls: [[["grep_search", "search_file_content", "grep"], { pattern: "TODO", path: WORKDIR }]] },
    { calls: [[["edit", "replace"], { file_path: p("notes.txt"), old_string: "hello there", new_string: "hello, world" }]] },
    { calls: [[["write_file"], { file_path: p("out/result.txt"), content: "result: ok\nlines: 2\n" }]] },
    { text: "Two commands: one fails, one succeeds.", calls: [
      [["run_shell_command"], { command: "cat missing-file.txt", description: "Print a file that does not exist" }],
      [["run_shell_command"], { command: "echo hi && wc -l notes.txt", description: "Echo and count lines" }],
    ] },
    { calls: [[["glob"], { pattern: "**/*.txt" }]] },
    { calls: [[["agent", "task"], { description: "Count TODOs", prompt: `${SUBAGENT_MARK}: count the TODO lines in notes.txt and report the number.`, subagent_type: "general-purpose" }]] },
  ],
  // The held-out run: different files, different order, no sub-agent.
  heldout: [
    { calls: [[["list_directory", "ls"], { path: p("src") }]] },
    // `absolute_path` is not read_file's parameter: Qwen Code refuses the call before running it.
    { text: "Let me look at the app.", calls: [[["read_file"], { absolute_path: p("src/app.js") }]] },
    { calls: [[["read_file"], { file_path: p("src/app.js") }]] },
    { calls: [[["run_shell_command"], { command: "node --check src/app.js && echo syntax-ok", description: "Check syntax" }]] },
    { calls: [[["edit", "replace"], { file_path: p("src/app.js"), old_string: "console.log('hi')", new_string: "console.log('hello')" }]] },
    { calls: [[["run_shell_command"], { command: "ls does-not-exist", description: "List a missing folder" }]] },
    { calls: [[["write_file"], { file_path: p("CHANGELOG.md"), content: "# Changes\n\n- say hello\n" }]] },
    { calls: [[["grep_search", "search_file_content", "grep"], { pattern: "hello", path: WORKDIR }]] },
  ],
};
const SUB_SCRIPT = [{ calls: [[["read_file"], { file_path: p("notes.txt") }]] }];
const FINAL = {
  main: "Done: read notes.txt, listed the folder, failed to read missing.txt, searched for TODO, edited notes.txt, wrote out/result.txt, a failing cat and a passing echo, globbed *.txt, and asked a sub-agent to count TODOs.",
  heldout: "Done: listed src, read app.js (the second time), checked its syntax, edited it, failed to list a missing folder, wrote CHANGELOG.md and searched for hello.",
};
const SUB_FINAL = "There are 2 TODO lines in notes.txt.";

function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c) => (typeof c === "string" ? c : c?.text ?? "")).join("\n");
  return "";
}

function stepOf(messages, prefix) {
  let max = -1;
  const re = new RegExp(`^${prefix}_(\\d+)_`);
  for (const m of messages || []) {
    for (const tc of m.tool_calls || []) {
      const match = re.exec(tc.id || "");
      if (match) max = Math.max(max, Number(match[1]));
    }
  }
  return max + 1;
}

let n = 0;
function callsOf(step, prefix, calls, offered) {
  return calls.map(([names, args]) => {
    const name = names.find((candidate) => offered.has(candidate)) ?? names[0];
    n += 1;
    return { id: `${prefix}_${step}_${n}`, type: "function", function: { name, arguments: JSON.stringify(args) } };
  });
}

function reply(parsed) {
  const messages = parsed?.messages || [];
  const offered = new Set((parsed?.tools || []).map((t) => t.function?.name).filter(Boolean));
  const firstUser = textOf(messages.find((m) => m.role === "user")?.content);
  const isSub = firstUser.includes(SUBAGENT_MARK);
  const isMain = !isSub && offered.has("run_shell_command");
  if (!isSub && !isMain) return { kind: "side", text: "OK", calls: [] };
  const [prefix, script, final] = isSub ? ["call_sub", SUB_SCRIPT, SUB_FINAL] : ["call_fake", SCRIPTS[VARIANT], FINAL[VARIANT]];
  const step = stepOf(messages, prefix);
  if (step >= script.length) return { kind: `${isSub ? "sub" : "main"}-final(${step})`, text: final, calls: [] };
  const s = script[step];
  return { kind: `${isSub ? "sub" : "main"}-step${step}`, text: s.text ?? "", calls: callsOf(step, prefix, s.calls, offered) };
}

const usage = (parsed) => {
  const prompt = Math.max(1, Math.round(JSON.stringify(parsed?.messages ?? []).length / 4));
  return { prompt_tokens: prompt, completion_tokens: 20, total_tokens: prompt + 20 };
};

serve(
  PORT,
  ({ method, url, parsed }, res) => {
    if (method === "GET" && url.includes("/models")) {
      log({ method, url, kind: "models" });
      sendJson(res, 200, { object: "list", data: [{ id: "fake-model", object: "model", owned_by: "fake" }] });
      return;
    }
    if (method !== "POST" || !url.includes("/chat/completions")) {
      log({ method, url, kind: "404" });
      res.writeHead(404);
      res.end();
      return;
    }
    const r = reply(parsed);
    const tools = (parsed?.tools || []).map((t) => t.function?.name);
    log({ method, url, kind: r.kind, model: parsed?.model, tools, body: parsed, reply: { text: r.text, calls: r.calls } });
    const id = `chatcmpl-fake-${Date.now()}`;
    const created = nowSeconds();
    const model = parsed?.model || "fake-model";
    const finish = r.calls.length > 0 ? "tool_calls" : "stop";
    const u = usage(parsed);
    if (!parsed?.stream) {
      const message = { role: "assistant", content: r.text || null };
      if (r.calls.length > 0) message.tool_calls = r.calls;
      sendJson(res, 200, { id, object: "chat.completion", created, model, choices: [{ index: 0, message, finish_reason: finish }], usage: u });
      return;
    }
    const send = (delta, finish_reason = null) => sse(res, chatChunk(id, created, model, delta, finish_reason));
    startSse(res);
    send({ role: "assistant", content: "" });
    if (r.text) send({ content: r.text });
    r.calls.forEach((call, index) => send({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: call.function.arguments } }] }));
    send({}, finish);
    sse(res, chatUsageChunk(id, created, model, u));
    sseDone(res);
  },
  () => log({ kind: "listening", port: PORT, variant: VARIANT }),
);
