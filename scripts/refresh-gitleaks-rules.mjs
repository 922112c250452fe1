#!/usr/bin/env node
// Regenerates src/share/redact/gitleaks/rules.json, the gitleaks rule set redaction reads as data,
// from a gitleaks.toml (gitleaks' config/gitleaks.toml, MIT: its licence is kept beside the JSON).
// Kept per rule: id, regex, secretGroup, entropy, keywords and the allowlists that look at text
// (regexes, stopwords; path-only allowlists and path-only rules are dropped: a session has no file
// paths to match). Every regex is compiled with re2js here, so a rule RE2 cannot read fails the
// refresh, not a redaction.
//   node scripts/refresh-gitleaks-rules.mjs <path or URL of gitleaks.toml> --version <gitleaks version or commit>
//   node scripts/refresh-gitleaks-rules.mjs   (gitleaks' master branch from GitHub)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RE2JS } from 're2js';
import { parse } from 'smol-toml';

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const version = flag('version');
const source = args[0] ?? 'https://raw.githubusercontent.com/gitleaks/gitleaks/master/config/gitleaks.toml';
const out = join(dirname(fileURLToPath(import.meta.url)), '../src/share/redact/gitleaks/rules.json');

const text = /^https?:\/\//.test(source) ? await (await fetch(source)).text() : readFileSync(source, 'utf8');
const config = parse(text);

/** An allowlist's text parts (paths and commits say nothing about a session's text). */
function allowlistOf(list) {
  const kept = {};
  if (list.condition) kept.condition = list.condition.toUpperCase();
  if (list.regexTarget) kept.regexTarget = list.regexTarget;
  if (list.regexes?.length) kept.regexes = list.regexes.map(checked);
  if (list.stopwords?.length) kept.stopwords = list.stopwords.map((word) => word.toLowerCase());
  if (!kept.regexes && !kept.stopwords) return null;
  // A path condition ANDed with text conditions cannot hold without a path: the list never applies.
  if (kept.condition === 'AND' && list.paths?.length) return null;
  return kept;
}

function checked(regex) {
  RE2JS.compile(regex);
  return regex;
}

const rules = [];
for (const rule of config.rules ?? []) {
  if (!rule.regex) continue;
  const kept = { id: rule.id, regex: checked(rule.regex) };
  if (rule.secretGroup) kept.secretGroup = rule.secretGroup;
  if (rule.entropy) kept.entropy = rule.entropy;
  kept.keywords = (rule.keywords ?? []).map((word) => word.toLowerCase());
  const allowlists = [...(rule.allowlists ?? []), ...(rule.allowlist ? [rule.allowlist] : [])].map(allowlistOf).filter(Boolean);
  if (allowlists.length) kept.allowlists = allowlists;
  rules.push(kept);
}
const globals = [...(config.allowlists ?? []), ...(config.allowlist ? [config.allowlist] : [])].map(allowlistOf).filter(Boolean);

const data = {
  source: { name: 'gitleaks', url: 'https://github.com/gitleaks/gitleaks', file: 'config/gitleaks.toml', version: version ?? 'unknown', license: 'MIT (see LICENSE)', ...(/^https?:/.test(source) ? { from: source } : {}) },
  allowlists: globals,
  rules,
};
writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
console.log(`${rules.length} rules, ${globals.length} global allowlist(s) → ${out}`);
