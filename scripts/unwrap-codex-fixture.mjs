#!/usr/bin/env node
// Turns the codex-acp test-snapshot lines ({fixture, method, args}) into what a client would have
// received: JSON-RPC `session/update` notifications and `session/request_permission` requests.
// Each snapshot file's session id is rewritten to the snapshot's name, so that calls from
// different snapshot files (which reuse ids like "test-session-id") are not merged into one.
//   node scripts/unwrap-codex-fixture.mjs > fixtures/acp/codex-acp-1.6.2_unwrapped.jsonl
import { readFileSync } from 'node:fs';

const source = new URL('../fixtures/acp/codex-acp-1.6.2_test-snapshots.jsonl', import.meta.url);
let id = 0;
for (const line of readFileSync(source, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const { fixture, method, args } = JSON.parse(line);
  const params = { ...args[0], sessionId: fixture.replace(/\.json$/, '') };
  const message = method === 'requestPermission'
    ? { jsonrpc: '2.0', id: ++id, method: 'session/request_permission', params }
    : { jsonrpc: '2.0', method: 'session/update', params };
  process.stdout.write(`${JSON.stringify(message)}\n`);
}
