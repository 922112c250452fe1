// The HTTP plumbing the scripted fake model servers share (fake-anthropic-subagents.mjs,
// fake-openai-chat.mjs, fake-openai-subagents.mjs, fake-chat-completions.mjs, pi/fake-chat.mjs):
// start a local server, read and parse each request's body, answer JSON or Server-Sent Events,
// and append a line per request to the log. What each server answers stays in its own file.
import http from "node:http";
import fs from "node:fs";

/** A logger that appends each record, stamped with the time, as one JSON line to `path`. */
export const requestLog = (path) => (rec) => fs.appendFileSync(path, JSON.stringify({ at: new Date().toISOString(), ...rec }) + "\n");

/** The request's JSON, or null (no body, or not JSON: answered like an empty request). */
export function parseBody(body) {
  try {
    return body ? JSON.parse(body) : null;
  } catch {
    return null;
  }
}

/**
 * Serve on 127.0.0.1:`port`; `handle({ method, url, body, parsed }, res)` answers each request once
 * its whole body has arrived (`body` the raw text, `parsed` its JSON or null).
 */
export function serve(port, handle, onListening) {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => handle({ method: req.method, url: req.url || "", body, parsed: parseBody(body) }, res));
  });
  server.listen(port, "127.0.0.1", onListening);
  return server;
}

export function sendJson(res, status, value, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
}

/** Start a streamed (SSE) answer. */
export function startSse(res, headers = {}) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
}

/** One SSE event: `data:` alone (OpenAI Chat Completions), or after `event:` (Anthropic, Responses). */
export function sse(res, data, event) {
  res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
}

/** End a Chat Completions stream. */
export function sseDone(res) {
  res.write("data: [DONE]\n\n");
  res.end();
}

/** A text cut in two (the first half the longer), so a client sees it arrive in more than one delta. */
export function halves(text) {
  const mid = Math.ceil(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

/** A Chat Completions stream chunk with one choice. */
export const chatChunk = (id, created, model, delta, finish_reason = null) => ({
  id,
  object: "chat.completion.chunk",
  created,
  model,
  choices: [{ index: 0, delta, finish_reason }],
});

/** The Chat Completions chunk after the last choice: usage only. */
export const chatUsageChunk = (id, created, model, usage) => ({ id, object: "chat.completion.chunk", created, model, choices: [], usage });

/** Seconds since the epoch, as Chat Completions' `created`. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);
