#!/usr/bin/env node
// Branches a recorded Pi session in place, as `/tree` does in Pi's interactive mode: opens the
// session file with Pi's own SDK, moves to the last user prompt (selecting a user message moves
// the leaf to its parent, sessions.md "Selection Behavior") and asks again, differently.
//
//   PI_PKG=/tmp/pi-agent/node_modules/@mariozechner/pi-coding-agent node branch.mjs SESSION.jsonl "PROMPT"
import { pathToFileURL } from "node:url";

const [file, prompt] = process.argv.slice(2);
const pi = await import(pathToFileURL(`${process.env.PI_PKG}/dist/index.js`).href);
const { AuthStorage, ModelRegistry, SessionManager, createAgentSession } = pi;
const authStorage = AuthStorage.create();
const modelRegistry = ModelRegistry.create(authStorage);
const model = modelRegistry.find("fake", "fake-model");
const sessionManager = SessionManager.open(file);
const { session } = await createAgentSession({ sessionManager, model, authStorage, modelRegistry });
const users = sessionManager.getEntries().filter((e) => e.type === "message" && e.message.role === "user");
const target = users.at(-1);
const result = await session.navigateTree(target.id, { summarize: false });
if (result.cancelled) throw new Error("navigateTree cancelled");
await session.prompt(prompt);
console.log(`branched at ${target.id}: ${session.sessionFile}`);
session.dispose();
