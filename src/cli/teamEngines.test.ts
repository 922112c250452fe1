// A team's index read by a distributed engine for real: three machines' `loupe index --machine`
// partitions in one folder, read by Polars (installed into a venv of its own by
// scripts/ensure-polars.mjs) as the README shows, its counts checked against `loupe summarize
// --json` of the same files: calls and failed calls per machine, calls per label, and tokens per
// machine against the Stats view's usage series of each file. Where Polars cannot be installed the
// test is skipped, printing why.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { usageSeries } from '../analysis/insights';
import { ingest, type Summary } from '../model';
import { buildCli } from './testing/buildCli';
import { main as summarize } from './summarize';

const ROOT = join(import.meta.dirname, '../..');
const GENERATOR = join(ROOT, 'scripts/gen-session.mjs');

/** The README's Polars recipe over the union, its answers as JSON. */
const POLARS_QUERY = `
import json, sys
import polars as pl
base = sys.argv[1]
calls = pl.scan_parquet(f"{base}/*/calls.parquet", hive_partitioning=True)
sessions = pl.scan_parquet(f"{base}/*/sessions.parquet", hive_partitioning=True)
per_machine = calls.group_by("machine").agg(pl.len().alias("calls"), (pl.col("status") == "failed").sum().alias("failed")).sort("machine").collect()
per_label = calls.group_by("label").agg(pl.len().alias("calls")).sort("label").collect()
tokens = sessions.group_by("machine").agg(pl.len().alias("sessions"), pl.col("input_tokens").sum(), pl.col("output_tokens").sum()).sort("machine").collect()
print(json.dumps({"per_machine": per_machine.to_dicts(), "per_label": per_label.to_dicts(), "tokens": tokens.to_dicts()}))
`;

/** Each machine's sessions: generated ones and fixtures that report tokens. */
const MACHINES: { machine: string; generated: [string, string[]][]; fixtures: string[] }[] = [
  { machine: 'alpha', generated: [['a1.jsonl', ['--format', 'acp', '--calls', '14', '--seed', '71']], ['a2.jsonl', ['--format', 'grok', '--calls', '9', '--seed', '72']]], fixtures: ['native/codex-0.137.0_rollout.jsonl'] },
  { machine: 'beta', generated: [['b1.jsonl', ['--format', 'ledger', '--calls', '11', '--seed', '73', '--bad-rate', '0.05']]], fixtures: ['native/claude-code-2.1.83_via-claude-agent-acp.jsonl'] },
  { machine: 'gamma', generated: [['c1.jsonl', ['--format', 'acp', '--calls', '6', '--seed', '74']]], fixtures: ['native/gemini-cli-0.61.0_chat-session-A.jsonl', 'acp/codex-acp-1.6.2_unwrapped.jsonl'] },
];

let work: string;
let cli: string;
let python: string | null = null;
let noPolars = '';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'loupe-team-engines-'));
  const ensured = spawnSync(process.execPath, [join(ROOT, 'scripts/ensure-polars.mjs')], { encoding: 'utf8', timeout: 900_000 });
  if (ensured.status === 0) python = (JSON.parse(ensured.stdout.trim().split('\n').pop() ?? '{}') as { python?: string }).python ?? null;
  else noPolars = ensured.stderr.trim().split('\n').pop() ?? `ensure-polars exited ${ensured.status}`;
  if (python) cli = await buildCli(join(work, 'cli'));
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

async function summaryOf(file: string): Promise<Summary> {
  let out = '';
  const code = await summarize(['summarize', file, '--json'], { out: (text) => (out += text), err: () => undefined });
  expect(code).toBe(0);
  return JSON.parse(out) as Summary;
}

/** Input and output tokens of a file as the Stats view sums its usage series; null where it reports none. */
async function tokensOf(file: string): Promise<{ input: number | null; output: number | null }> {
  const points = usageSeries((await ingest(new Uint8Array(readFileSync(file)))).items);
  const sum = (key: 'inputTokens' | 'outputTokens') => points.reduce<number | null>((total, point) => (point[key] === null ? total : (total ?? 0) + point[key]), null);
  return { input: sum('inputTokens'), output: sum('outputTokens') };
}

describe("a team's index read by a distributed engine", () => {
  test('Polars reads the three machines\' partitions as one table: its counts are loupe summarize\'s over the same files', async (ctx) => {
    if (!python) {
      console.warn(`skipped: Polars could not be installed: ${noPolars}`);
      ctx.skip(`Polars could not be installed: ${noPolars}`);
      return;
    }
    const base = join(work, 'team');
    const expected = { perMachine: [] as { machine: string; calls: number; failed: number }[], perLabel: new Map<string, number>(), tokens: [] as { machine: string; sessions: number; input_tokens: number; output_tokens: number }[] };
    for (const { machine, generated, fixtures } of MACHINES) {
      const dir = join(work, machine);
      mkdirSync(dir, { recursive: true });
      for (const [file, args] of generated) {
        const made = spawnSync(process.execPath, [GENERATOR, ...args, '--out', join(dir, file)], { encoding: 'utf8' });
        expect(made.status, made.stderr).toBe(0);
      }
      for (const fixture of fixtures) copyFileSync(join(ROOT, 'fixtures', fixture), join(dir, fixture.split('/')[1]!));
      const run = spawnSync(process.execPath, [cli, 'index', dir, '--out', base, '--machine', machine], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);

      const files = readdirSync(dir).map((name) => join(dir, name));
      let calls = 0;
      let failed = 0;
      let input: number | null = null;
      let output: number | null = null;
      for (const file of files) {
        const summary = await summaryOf(file);
        calls += summary.calls.length;
        failed += summary.calls.filter((call) => call.status === 'failed').length;
        for (const call of summary.calls) expected.perLabel.set(call.label, (expected.perLabel.get(call.label) ?? 0) + 1);
        const tokens = await tokensOf(file);
        if (tokens.input !== null) input = (input ?? 0) + tokens.input;
        if (tokens.output !== null) output = (output ?? 0) + tokens.output;
      }
      expected.perMachine.push({ machine, calls, failed });
      // Polars sums a column of nulls to 0 (SQL engines to null).
      expected.tokens.push({ machine, sessions: files.length, input_tokens: input ?? 0, output_tokens: output ?? 0 });
    }
    // Some machine reports tokens, or the token check could not fail.
    expect(expected.tokens.some((t) => t.input_tokens > 0)).toBe(true);

    const read = spawnSync(python, ['-c', POLARS_QUERY, base], { encoding: 'utf8', timeout: 300_000 });
    expect(read.status, read.stderr).toBe(0);
    const answer = JSON.parse(read.stdout) as { per_machine: unknown[]; per_label: { label: string; calls: number }[]; tokens: unknown[] };
    expect(answer.per_machine).toEqual(expected.perMachine);
    expect(answer.per_label).toEqual([...expected.perLabel].map(([label, calls]) => ({ label, calls })).sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)));
    expect(answer.tokens).toEqual(expected.tokens);
  });
});
