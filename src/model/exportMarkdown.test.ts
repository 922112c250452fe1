import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionMarkdown } from './exportMarkdown';
import { ingest } from './ingest';

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
