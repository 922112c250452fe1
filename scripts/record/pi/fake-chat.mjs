#!/usr/bin/env node
// A fake OpenAI Chat Completions server for recording Pi (@mariozechner/pi-coding-agent) offline,
// adapted from the real-agents harness's fake-openai.mjs (which speaks the Responses API).
//
//   PORT=5631 LOG=requests.jsonl SCRIPT=main node fake-chat.mjs
//
// POST /v1/chat/completions (streaming SSE, usage in the last chunk). Every request is appended to
// $LOG. The reply is scripted by conversation state, not by prompt text: the turn is the number of
// user messages in the request, and the step within the turn is 1 + the highest step of the tool
// calls (`call_pi_<turn>_<step>_<n>`) the turn's assistant messages already made.
import { chatChunk, chatUsageChunk, halves, nowSeconds, requestLog, sendJson, serve, sse, sseDone, startSse } from "../fake-server.mjs";

const PORT = Number(process.env.PORT || 5631);
const LOG = process.env.LOG || "fake-chat.requests.jsonl";
const log = requestLog(LOG);

// A turn is a list of steps; a step is { think?, text?, calls: [[tool, args], …] }; after the last
// step the model answers `final` and stops.
const TURNS = {
  main: [
    {
      steps: [
        { think: "Start by reading the notes.", text: "Reading the notes first.", calls: [["read", { path: "notes.txt" }]] },
        { calls: [["bash", { command: "cat missing-file.txt" }]] },
        { calls: [["bash", { command: "ls -la && echo done" }]] },
        { calls: [["ls", { path: "." }], ["find", { pattern: "*.js" }], ["grep", { pattern: "TODO", path: "." }]] },
        { calls: [["edit", { path: "notes.txt", edits: [{ oldText: "hello there", newText: "hello, world" }] }]] },
        { calls: [["write", { path: "out/result.txt", content: "result: ok\nlines: 2\n" }]] },
      ],
      final: "Done: read notes.txt, a missing file failed to cat, listed and searched the workspace, edited notes.txt and wrote out/result.txt.",
    },
    {
      steps: [{ calls: [["bash", { command: "wc -l notes.txt out/result.txt" }]] }, { calls: [["read", { path: "out/result.txt" }]] }],
      final: "notes.txt has 2 lines and out/result.txt has 2 lines.",
    },
  ],
  // The branch: the second prompt asked again, differently, from the same point.
  branch: [
    null,
    {
      steps: [{ calls: [["bash", { command: "head -n 1 notes.txt" }]] }],
      final: "The first line of notes.txt is `hello, world`.",
    },
  ],
  // The held-out run: a different session, not looked at while the adapter was written.
  heldout: [
    {
      steps: [
        { calls: [["ls", {}]] },
        { think: "Check the app before changing it.", calls: [["read", { path: "src/app.js" }], ["bash", { command: "node src/app.js; exit 3" }]] },
        { calls: [["write", { path: "src/util.js", content: "export const twice = (x) => x * 2;\n" }]] },
        { calls: [["edit", { path: "src/app.js", edits: [{ oldText: "no such text", newText: "x" }] }]] },
        { calls: [["grep", { pattern: "console", path: "src" }]] },
      ],
      final: "Added src/util.js; the app exits 3 and one edit did not apply.",
    },
  ],
};

function stateOf(messages) {
  const turn = (messages || []).filter((m) => m.role === "user").length - 1;
  let step = 0;
  for (const m of messages || []) {
    for (const c of m.role === "assistant" ? m.tool_calls || [] : []) {
      const match = /^call_pi_(\d+)_(\d+)_/.exec(c.id || "");
      if (match && Number(match[1]) === turn) step = Math.max(step, Number(match[2]) + 1);
    }
  }
  return { turn, step };
}

let n = Number(process.env.N0 || 0);
serve(
  PORT,
  ({ method, url, parsed }, res) => {
    if (method === "GET" && url.startsWith("/v1/models")) {
      sendJson(res, 200, { object: "list", data: [{ id: "fake-model", object: "model" }] });
      return;
    }
    if (method !== "POST" || !url.startsWith("/v1/chat/completions")) {
      log({ method, url, kind: "unhandled" });
      sendJson(res, 404, { error: { message: `fake server: no ${method} ${url}` } });
      return;
    }
    const script = TURNS[process.env.SCRIPT || "main"];
    const { turn, step } = stateOf(parsed?.messages);
    const plan = script[turn] ?? { steps: [], final: "OK" };
    const s = plan.steps[step];
    const model = parsed?.model || "fake-model";
    const id = `chatcmpl-fake-${Date.now()}`;
    const created = nowSeconds();
    const chunk = (delta, finish = null) => chatChunk(id, created, model, delta, finish);
    const chunks = [chunk({ role: "assistant", content: "" })];
    if (s?.think) chunks.push(chunk({ reasoning_content: s.think }));
    const text = s ? s.text : plan.final;
    // Both halves, even an empty second one: what Pi was recorded against.
    if (text) for (const piece of halves(text)) chunks.push(chunk({ content: piece }));
    (s?.calls || []).forEach(([name, args], index) => {
      n += 1;
      const callId = `call_pi_${turn}_${step}_${n}`;
      chunks.push(chunk({ tool_calls: [{ index, id: callId, type: "function", function: { name, arguments: "" } }] }));
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: JSON.stringify(args) } }] }));
    });
    chunks.push(chunk({}, s ? "tool_calls" : "stop"));
    const prompt = 100 + 10 * (parsed?.messages?.length || 0);
    chunks.push(chatUsageChunk(id, created, model, { prompt_tokens: prompt, completion_tokens: 20, total_tokens: prompt + 20, prompt_tokens_details: { cached_tokens: 40 } }));
    log({ method, url, kind: s ? `turn${turn}/step${step}` : `turn${turn}/final`, tools: (parsed?.tools || []).map((t) => t.function?.name), body: parsed });
    startSse(res);
    for (const c of chunks) sse(res, c);
    sseDone(res);
  },
  () => console.error(`fake-chat listening on http://127.0.0.1:${PORT} (script ${process.env.SCRIPT || "main"}, log ${LOG})`),
);
