import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionMarkdown } from './exportMarkdown';
import { ingest } from '../model/readSession';

const GEMINI = new URL('../../fixtures/acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl', import.meta.url);

describe('the md export with notes', () => {
  it('lists each note under its call, bookmarks starred, markup shown as written', async () => {
    const session = await ingest(new Uint8Array(readFileSync(GEMINI)));
    const [first, second] = [...session.calls.values()];
    const md = sessionMarkdown(session, {
      title: 'gemini',
      redacted: null,
      notes: { [first!.key]: { text: 'check *this* edit', bookmarked: true }, [second!.key]: { text: '', bookmarked: true }, 'no-such-call': { text: 'lost', bookmarked: false } },
    });
    const notes = md.slice(md.indexOf('## Notes'));
    expect(notes).toContain(`- ★ ${first!.label}`);
    expect(notes).toContain(`line ${first!.firstLine}): check \\*this\\* edit`);
    expect(notes).toContain(`- ★ ${second!.label}`);
    expect(notes).not.toContain('lost');
    expect(sessionMarkdown(session, { title: 'gemini', redacted: null })).not.toContain('## Notes');
  });
});

describe('the md export of failures', () => {
  it('shows each failed call its own line and output when an agent reused the id (CONTRACTS §4)', async () => {
    const update = (fields: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: fields } });
    const text = (t: string) => [{ type: 'content', content: { type: 'text', text: t } }];
    const lines = [
      update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls', kind: 'execute', status: 'in_progress' }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: text('FIRST OUTPUT') }),
      update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'make', kind: 'execute', status: 'in_progress' }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed', content: text('SECOND OUTPUT') }),
    ];
    const session = await ingest(`${lines.join('\n')}\n`);
    expect(session.calls.size).toBe(2);
    const failures = sessionMarkdown(session, { title: 'reused', redacted: null }).split('## Failures')[1] ?? '';
    expect(failures).toContain('call `t1`, line 3');
    expect(failures).toContain('SECOND OUTPUT');
    expect(failures).not.toContain('FIRST OUTPUT');
  });
});
