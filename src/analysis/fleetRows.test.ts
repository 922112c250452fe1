// fleetRows takes a session's rows in one pass over its calls and one over its items. Here it is
// held to what it was taken from: `summarize`'s calls, `sessionSummaries`' times, `usageSeries`'
// tokens and costs (`loupe summarize --json` and the Insights view say the same), on every
// fixture, and on sessions made of lines of several fixtures, shuffled and repeated (several
// sessions, several formats, calls before and after their reports, reports without calls).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ingest, summarize, type Session } from '../model';
import { fleetRows, type FleetCall, type FleetFileFacts, type FleetRows } from './fleet';
import { sessionSummaries, usageSeries, type UsagePoint } from './insights';

const FIXTURES = join(import.meta.dirname, '../../fixtures');

/** fleetRows as it was first written, from the projections it flattens. */
function fleetRowsBySummary(session: Session, facts: FleetFileFacts): FleetRows {
  const summary = summarize(session);
  const format = session.format === 'mixed' || session.format === 'unknown' ? facts.headFormat : session.format;
  const turnTokens = new Map<string, { inputTokens: number | null; outputTokens: number | null }>();
  const open = new Map<string | null, string[]>();
  for (const item of session.items) {
    if (item.type === 'call') {
      const sessionId = session.calls.get(item.callKey)?.sessionId ?? null;
      open.set(sessionId, [...(open.get(sessionId) ?? []), item.callKey]);
    } else if (item.type === 'turn_end' || item.type === 'usage') {
      const input = finite(item.usage?.inputTokens);
      const output = finite(item.usage?.outputTokens);
      if (input === null && output === null) continue;
      for (const key of open.get(item.sessionId) ?? []) turnTokens.set(key, { inputTokens: input, outputTokens: output });
      open.delete(item.sessionId);
    }
  }
  const modelCalls = [...session.calls.values()];
  const calls = summary.calls.map((call, index): FleetCall => {
    const modelCall = modelCalls[index];
    const tokens = modelCall ? turnTokens.get(modelCall.key) : undefined;
    return {
      file: facts.file, format, session: call.session, call_id: call.id, label: call.label, subject: call.subject, status: call.status,
      started_ms: finite(modelCall?.startMs), duration_ms: call.durationMs, permission: call.permission, exit_code: call.exitCode,
      turn_input_tokens: tokens?.inputTokens ?? null, turn_output_tokens: tokens?.outputTokens ?? null, parent_call_id: call.parent,
    };
  });
  const spans = sessionSummaries(session.sessionIds, session.items, session.calls, session.ended);
  const starts = spans.map((span) => span.startMs).filter((ms) => ms !== null);
  const ends = spans.map((span) => span.endMs).filter((ms) => ms !== null);
  const started = starts.length === 0 && facts.startedMs === null ? null : Math.min(...starts, ...(facts.startedMs === null ? [] : [facts.startedMs]));
  const ended = ends.length === 0 ? null : Math.max(...ends);
  const usage = usageSeries(session.items);
  const sum = (key: 'inputTokens' | 'outputTokens'): number | null => usage.reduce<number | null>((total, point) => (point[key] === null ? total : (total ?? 0) + point[key]), null);
  return {
    session: {
      file: facts.file, format, session: session.sessionIds[0] ?? facts.sessionId, project: facts.project, title: facts.title, started_ms: started,
      ended_ms: ended ?? started, calls: calls.length, failed: calls.filter((call) => call.status === 'failed').length,
      input_tokens: sum('inputTokens'), output_tokens: sum('outputTokens'), ...costOf(usage), bytes: facts.bytes, bad_lines: session.counts.bad,
      modified_ms: facts.modifiedMs,
    },
    calls,
  };
}

function costOf(points: readonly UsagePoint[]): { cost: number | null; cost_unit: string | null } {
  const last = new Map<string | null, { amount: number; currency: string }>();
  for (const point of points) if (point.cost && Number.isFinite(point.cost.amount)) last.set(point.sessionId, point.cost);
  const units = new Set([...last.values()].map((cost) => cost.currency));
  if (last.size === 0 || units.size > 1) return { cost: null, cost_unit: null };
  return { cost: [...last.values()].reduce((total, cost) => total + cost.amount, 0), cost_unit: [...units][0] ?? '' };
}

function finite(value: number | undefined | null): number | null {
  return value === undefined || value === null || !Number.isFinite(value) ? null : value;
}

const facts = (startedMs: number | null): FleetFileFacts => ({ file: 'f.jsonl', bytes: 9, modifiedMs: 1, headFormat: 'acp-capture', project: 'p', startedMs, sessionId: 'head', title: 't' });

const fixtures = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.(jsonl|json|log|db)$/.test(name) && !name.startsWith('__snapshots__'))
  .sort();

describe('fleetRows', () => {
  it('gives the rows summarize, sessionSummaries and usageSeries give, on every fixture, read light and whole', async () => {
    let calls = 0;
    let tokens = 0;
    for (const name of fixtures) {
      const bytes = readFileSync(join(FIXTURES, name));
      for (const session of [await ingest(bytes, { detail: 'light', decodeEachLine: true, keepEvents: false }), await ingest(bytes)]) {
        for (const startedMs of [null, 0, Date.UTC(2030, 0, 1)]) {
          const rows = fleetRows(session, facts(startedMs));
          expect(rows, name).toEqual(fleetRowsBySummary(session, facts(startedMs)));
          calls += rows.calls.length;
          tokens += rows.calls.filter((call) => call.turn_input_tokens !== null).length;
        }
      }
    }
    // The fixtures have calls, and calls with their turn's tokens.
    expect(calls).toBeGreaterThan(100);
    expect(tokens).toBeGreaterThan(10);
  });

  it('gives them on lines of several fixtures mixed, shuffled and repeated', async () => {
    const lines = fixtures
      .filter((name) => name.endsWith('.jsonl'))
      .flatMap((name) => readFileSync(join(FIXTURES, name), 'utf8').split('\n').filter((line) => line.trim() !== '').slice(0, 60));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(lines.length - 1), { minLength: 1, maxLength: 80 }), fc.boolean(), fc.option(fc.nat(), { nil: null }), async (picked, light, startedMs) => {
        const text = `${picked.map((index) => lines[index]!).join('\n')}\n`;
        const session = await ingest(text, light ? { detail: 'light', decodeEachLine: true, keepEvents: false } : {});
        expect(fleetRows(session, facts(startedMs))).toEqual(fleetRowsBySummary(session, facts(startedMs)));
        // A session not read to its end: calls still going are not unfinished yet.
        const open = { ...session, ended: false };
        expect(fleetRows(open, facts(startedMs))).toEqual(fleetRowsBySummary(open, facts(startedMs)));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the cost each session reported last, summed, and none where the units differ', async () => {
    // Costs as ACP's usage_update reports them: running totals per session, in one unit or two, zero and -0 among them.
    const report = fc.record({ session: fc.constantFrom('s1', 's2', 's3'), amount: fc.constantFrom('0', '-0', '0.25', '1.5', '12'), currency: fc.constantFrom('USD', 'USD', 'credits') });
    await fc.assert(
      fc.asyncProperty(fc.array(report, { minLength: 1, maxLength: 12 }), async (reports) => {
        const text = reports
          .map(({ session, amount, currency }, n) =>
            `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${session}","update":{"sessionUpdate":"usage_update","used":${n},"size":200000,"cost":{"amount":${amount},"currency":"${currency}"}}}}`)
          .join('\n');
        const session = await ingest(`${text}\n`);
        const rows = fleetRows(session, facts(null));
        expect(rows).toEqual(fleetRowsBySummary(session, facts(null)));
        const lastUnit = new Map(reports.map((r) => [r.session, r.currency]));
        expect(rows.session.cost_unit === null).toBe(new Set(lastUnit.values()).size > 1);
      }),
      { numRuns: 200 },
    );
  });
});
