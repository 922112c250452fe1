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
import http from "node:http";
import fs from "node:fs";

const PORT = Number(process.env.PORT || 5631);
const LOG = process.env.LOG || "fake-chat.requests.jsonl";
const log = (rec) => fs.appendFileSync(LOG, JSON.stringify({ at: new Date().toISOString(), ...rec }) + "\n");

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

const chunk = (id, model, delta, extra = {}) => ({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: null }], ...extra });

let n = Number(process.env.N0 || 0);
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    let parsed;
    try {
      parsed = body ? JSON.parse(body) : null;
    } catch {
      parsed = null;
    }
    const url = req.url || "";
    if (req.method === "GET" && url.startsWith("/v1/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model" }] }));
      return;
    }
    if (req.method !== "POST" || !url.startsWith("/v1/chat/completions")) {
      log({ method: req.method, url, kind: "unhandled" });
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fake server: no ${req.method} ${url}` } }));
      return;
    }
    const script = TURNS[process.env.SCRIPT || "main"];
    const { turn, step } = stateOf(parsed?.messages);
    const plan = script[turn] ?? { steps: [], final: "OK" };
    const s = plan.steps[step];
    const model = parsed?.model || "fake-model";
    const id = `chatcmpl-fake-${Date.now()}`;
    const chunks = [chunk(id, model, { role: "assistant", content: "" })];
    if (s?.think) chunks.push(chunk(id, model, { reasoning_content: s.think }));
    const text = s ? s.text : plan.final;
    if (text) {
      const mid = Math.ceil(text.length / 2);
      chunks.push(chunk(id, model, { content: text.slice(0, mid) }), chunk(id, model, { content: text.slice(mid) }));
    }
    (s?.calls || []).forEach(([name, args], index) => {
      n += 1;
      const callId = `call_pi_${turn}_${step}_${n}`;
      chunks.push(chunk(id, model, { tool_calls: [{ index, id: callId, type: "function", function: { name, arguments: "" } }] }));
      chunks.push(chunk(id, model, { tool_calls: [{ index, function: { arguments: JSON.stringify(args) } }] }));
    });
    const last = chunk(id, model, {});
    last.choices[0].finish_reason = s ? "tool_calls" : "stop";
    chunks.push(last);
    const prompt = 100 + 10 * (parsed?.messages?.length || 0);
    chunks.push({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: 20, total_tokens: prompt + 20, prompt_tokens_details: { cached_tokens: 40 } } });
    log({ method: req.method, url, kind: s ? `turn${turn}/step${step}` : `turn${turn}/final`, tools: (parsed?.tools || []).map((t) => t.function?.name), body: parsed });
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const c of chunks) res.write(`data: ${JSON.stringify(c)}\n\n`);
    res.write("data: [DONE]\n\n");
    res.end();
  });
});
server.listen(PORT, "127.0.0.1", () => console.error(`fake-chat listening on http://127.0.0.1:${PORT} (script ${process.env.SCRIPT || "main"}, log ${LOG})`));
