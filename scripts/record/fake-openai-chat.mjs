#!/usr/bin/env node
// A fake OpenAI-compatible Chat Completions server that plays a fixed script of tool calls, to
// record a real agent (OpenCode, through its `@ai-sdk/openai-compatible` provider) offline.
// Adapted from the shared real-agents harness's fake-openai.mjs (which speaks the Responses API).
//
//   PORT=5640 WORKDIR=/abs/workspace LOG=requests.jsonl SCRIPT=main|heldout node fake-openai-chat.mjs
//
// SCRIPTS=path/to/module.mjs plays another harness's scripts instead of OpenCode's: the module
// exports `scripts(abs)` returning `{ SCRIPTS, FINAL }` in the shape below (cline-scripts.mjs).
//
// POST /v1/chat/completions (streamed as SSE); GET /v1/models lists one model. Every request is
// appended to $LOG as one JSON line.
//
// Scripted by conversation state, not by prompt text: every tool call id is
// `call_<who>_<step>_<n>`, so the next step is 1 + the highest step among the calls already in the
// conversation. A request whose first user message asks for a sub-agent (`[sub-agent]`) plays the
// sub-agent's script. A request without tools (OpenCode's title and summary requests) is answered
// with a short text. After the last step the model answers in text and stops.
import { chatChunk, chatUsageChunk, halves, nowSeconds, requestLog, sendJson, serve, sse, sseDone, startSse } from "./fake-server.mjs";

const PORT = Number(process.env.PORT || 5640);
const WORKDIR = process.env.WORKDIR || process.cwd();
const LOG = process.env.LOG || "fake-openai-chat.requests.jsonl";
const WHICH = process.env.SCRIPT || "main";
const log = requestLog(LOG);
const abs = (p) => `${WORKDIR}/${p}`;

// A step: { text?, reasoning?, calls: [[toolName, args]] }. A call to a tool OpenCode does not
// offer is left out (the log says which tools were offered).
const OPENCODE_SCRIPTS = {
  main: [
    {
      reasoning: "The user wants the notes tidied. I will plan, then read the file first.",
      calls: [["todowrite", { todos: [
        { content: "Read notes.txt", status: "in_progress", priority: "high" },
        { content: "Fix the greeting", status: "pending", priority: "medium" },
        { content: "Write out/result.txt", status: "pending", priority: "low" },
      ] }]],
    },
    { text: "Reading the notes first.", calls: [["read", { filePath: abs("notes.txt") }]] },
    { calls: [["bash", { command: "cat missing-file.txt", description: "Show a file that is not there" }]] },
    { calls: [["bash", { command: "ls -la", description: "List the workspace" }]] },
    { calls: [["edit", { filePath: abs("notes.txt"), oldString: "hello there", newString: "hello, world" }]] },
    { calls: [["write", { filePath: abs("out/result.txt"), content: "result: ok\nlines: 2\n" }]] },
    { text: "Two searches at once.", calls: [["glob", { pattern: "**/*.js" }], ["grep", { pattern: "TODO" }]] },
    { calls: [["task", { description: "Summarise the README", prompt: "[sub-agent] Read README.md and say what it is about.", subagent_type: "general" }]] },
  ],
  // The held-out run: another order, another failing command, no sub-agent.
  heldout: [
    { calls: [["bash", { command: "echo start && false", description: "Echo, then fail" }]] },
    { calls: [["read", { filePath: abs("src/app.js") }], ["grep", { pattern: "hello", include: "*.txt" }]] },
    { calls: [["write", { filePath: abs("src/extra.js"), content: "export const x = 1;\n" }]] },
    { calls: [["edit", { filePath: abs("src/app.js"), oldString: "console.log", newString: "console.info" }]] },
    { calls: [["bash", { command: "wc -l src/*.js", description: "Count lines" }]] },
  ],
  sub: [
    { text: "Reading the README.", calls: [["read", { filePath: abs("README.md") }]] },
  ],
};
const OPENCODE_FINAL = {
  main: "Done: planned, read notes.txt, failed to cat a missing file, listed files, fixed the greeting, wrote out/result.txt, searched, and asked a sub-agent about the README.",
  heldout: "Held-out run done.",
  sub: "The README describes a tiny demo app.",
};

const { SCRIPTS, FINAL } = process.env.SCRIPTS
  ? (await import(new URL(process.env.SCRIPTS, `file://${process.cwd()}/`).href)).scripts(abs)
  : { SCRIPTS: OPENCODE_SCRIPTS, FINAL: OPENCODE_FINAL };

function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p.text === "string" ? p.text : "")).join("");
  return "";
}

function stepOf(messages, who) {
  let max = -1;
  const re = new RegExp(`^call_${who}_(\\d+)_`);
  for (const m of messages || []) {
    for (const call of m.tool_calls || []) {
      const match = re.exec(call.id || "");
      if (match) max = Math.max(max, Number(match[1]));
    }
  }
  return max + 1;
}

let n = 0;
serve(
  PORT,
  ({ method, url, body, parsed }, res) => {
    if (method === "GET" && url.startsWith("/v1/models")) {
      log({ method, url, kind: "models" });
      sendJson(res, 200, { object: "list", data: [{ id: "fake-model", object: "model", owned_by: "fake" }] });
      return;
    }
    if (method === "POST" && url.startsWith("/v1/chat/completions")) {
      const messages = parsed?.messages || [];
      const tools = new Set((parsed?.tools || []).map((t) => t.function?.name).filter(Boolean));
      const firstUser = textOf(messages.find((m) => m.role === "user")?.content);
      const who = tools.size === 0 ? "side" : firstUser.includes("[sub-agent]") ? "sub" : WHICH;
      const script = SCRIPTS[who] || [];
      const step = who === "side" ? -1 : stepOf(messages, who);
      let text;
      let reasoning = null;
      const calls = [];
      let kind;
      if (who === "side") {
        kind = "side";
        text = "Tidy the notes";
      } else if (step >= script.length) {
        kind = `${who}:final(${step})`;
        text = FINAL[who];
      } else {
        kind = `${who}:step${step}`;
        const s = script[step];
        text = s.text ?? null;
        reasoning = s.reasoning ?? null;
        for (const [name, args] of s.calls) {
          if (!tools.has(name)) continue;
          n += 1;
          calls.push({ id: `call_${who}_${step}_${n}`, name, args });
        }
        // A step whose tools are all missing: answer in text so the conversation moves on.
        if (calls.length === 0 && text === null) text = `(no ${s.calls.map((c) => c[0]).join(", ")} tool offered)`;
      }
      log({ method, url, kind, model: parsed?.model, tools: [...tools], body: parsed, reply: { text, reasoning, calls } });
      const id = `chatcmpl_fake_${Date.now()}_${n}`;
      const model = parsed?.model || "fake-model";
      const send = (delta, finish = null) => sse(res, chatChunk(id, nowSeconds(), model, delta, finish));
      startSse(res);
      send({ role: "assistant", content: "" });
      if (reasoning) send({ reasoning_content: reasoning });
      if (text) for (const piece of halves(text)) if (piece) send({ content: piece });
      calls.forEach((call, index) => {
        send({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } }] });
      });
      send({}, calls.length > 0 ? "tool_calls" : "stop");
      sse(res, chatUsageChunk(id, nowSeconds(), model, { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 }));
      sseDone(res);
      return;
    }
    log({ method, url, kind: "unhandled", body: parsed ?? body });
    sendJson(res, 404, { error: { message: `fake server: no ${method} ${url}`, type: "invalid_request_error" } });
  },
  () => console.error(`fake-openai-chat listening on http://127.0.0.1:${PORT} (script ${WHICH}, workdir ${WORKDIR}, log ${LOG})`),
);
