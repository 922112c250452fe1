import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBLAKE3 } from 'hash-wasm';
import { afterAll, describe, expect, test } from 'vitest';
import { ingest, summarize } from '../model';
import { ALREADY_REDACTED_VALUE, leakedSecrets, PLANTED_SECRETS, plantedSession } from '../share/testing/plantedCorpus';
import { corpusSession, HARMLESS, leaked, secretVariants } from '../share/testing/secretCorpus';
import { main } from './export';
import { exportPolicy } from '../share/exportHtml';
import { htmlPage } from './exportHtml';

const dir = mkdtempSync(join(tmpdir(), 'loupe-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const planted = join(dir, 'planted.jsonl');
writeFileSync(planted, plantedSession());
const plantedValues = new Set(PLANTED_SECRETS.map((secret) => secret.value)).size;

// A stand-in for the built viewer: these tests are about what the page holds, not how it draws.
const viewerDir = join(dir, 'viewer');
mkdirSync(viewerDir);
writeFileSync(join(viewerDir, 'standalone.js'), 'document.title = "</script> viewer";');
writeFileSync(join(viewerDir, 'standalone.css'), 'body { margin: 0 }');

async function run(...argv: string[]) {
  let err = '';
  const out = join(dir, `out-${Math.random().toString(36).slice(2)}`);
  const code = await main([...argv, '--out', out], { out: () => {}, err: (text) => (err += `${text}\n`) }, { htmlPage: (records, options) => htmlPage(records, options, viewerDir) });
  return { code, err, text: code === 0 ? readFileSync(out, 'utf8') : '' };
}

/** An html export's text with its embedded session decoded beside it. */
function withPayload(html: string): string {
  const payload = /id="loupe-session"[^>]*>([^<]*)</.exec(html)?.[1] ?? '';
  return `${html}\n${Buffer.from(payload, 'base64').toString('utf8')}`;
}

const shape = async (text: string) => summarize(await ingest(text)).calls.map((call) => [call.id, call.label, call.subject, call.status]);

describe('loupe export', () => {
  test('a path that is not a readable session file is named with why, as summarize and open say it', async () => {
    expect(await run(join(dir, 'missing.jsonl'), '--format', 'md')).toMatchObject({ code: 1, err: `loupe export: no such file: ${join(dir, 'missing.jsonl')}\n` });
    expect(await run(viewerDir, '--format', 'md')).toMatchObject({ code: 1, err: `loupe export: ${viewerDir} is a directory; give the session file inside it\n` });
  });

  test('without --redact every planted secret is there, in all three formats (so the grep below can fail)', async () => {
    expect(leakedSecrets((await run(planted, '--format', 'jsonl')).text)).toHaveLength(plantedValues);
    expect(leakedSecrets(withPayload((await run(planted, '--format', 'html')).text))).toHaveLength(plantedValues);
    // md shows excerpts of failures only: some planted places are in failed calls' output.
    expect(leakedSecrets((await run(planted, '--format', 'md')).text).length).toBeGreaterThan(0);
  });

  test.each(['jsonl', 'md', 'html'])('--redact --format %s leaves no planted secret, however escaped, and keeps the ledger redacted form', async (format) => {
    const { code, text, err } = await run(planted, '--format', format, '--redact');
    expect(code).toBe(0);
    const shown = format === 'html' ? withPayload(text) : text;
    expect(leakedSecrets(shown)).toEqual([]);
    expect(shown).toContain('‹aws-access-key›');
    if (format !== 'md') expect(shown).toContain(ALREADY_REDACTED_VALUE);
    // stderr says what was replaced and where, so a person can check before sharing.
    expect(err).toMatch(/replaced \d+ secrets/);
    expect(err).toMatch(/aws-access-key: \d+ \(lines 3, /);
  });

  test('a redacted jsonl export reads back as the same calls, labels, subjects and statuses', async () => {
    const { text } = await run(planted, '--format', 'jsonl', '--redact');
    expect(await shape(text)).toEqual(await shape(plantedSession()));
    for (const fixture of ['fixtures/acp/codex-acp-1.6.2_unwrapped.jsonl', 'fixtures/acp/jetbrains-ide_acp-transport-log_acp-replay-example.log', 'fixtures/ledger/golden-s1.ledger-00000000000000000000.jsonl']) {
      const exported = await run(fixture, '--format', 'jsonl', '--redact');
      expect(await shape(exported.text), fixture).toEqual(await shape(readFileSync(fixture, 'utf8')));
    }
  });

  test('a jsonl export without --redact is the file byte for byte', async () => {
    const fixture = 'fixtures/acp/zed-1.13.2_acp-logs-export_ny-gemini-acp-0.2.2_excerpt.json';
    expect((await run(fixture, '--format', 'jsonl')).text).toBe(readFileSync(fixture, 'utf8'));
  });

  test('the md export of a fixture: turns, calls by label, failures with their output', async () => {
    const { text } = await run('fixtures/acp/gemini-cli-0.61.0_scripted-model_live-turn_fs-capability.jsonl', '--format', 'md', '--redact');
    await expect(text).toMatchFileSnapshot('__snapshots__/export.gemini-live-turn-fs.md');
  });

  test('the html page runs only its own script, by hash, and reaches nothing', async () => {
    const { text } = await run('fixtures/acp/loupe-tee_text-frames.jsonl', '--format', 'html');
    const script = /<script type="module">([\s\S]*)<\/script>\n<\/body>/.exec(text)?.[1] ?? '';
    expect(script).toBe('document.title = "<\\/script> viewer";');
    const policy = await exportPolicy(script);
    expect(text).toContain(`content="${policy.replace(/'/g, '&#39;')}"`);
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'/);
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy).toContain("connect-src 'none'");
  });

  test('usage errors say how to use it', async () => {
    expect((await run(planted)).code).toBe(2);
    expect((await run(planted, '--format', 'pdf')).code).toBe(2);
    expect((await run(join(dir, 'missing.jsonl'), '--format', 'md')).code).toBe(1);
  });
});

describe('loupe export --notes', () => {
  const blake3 = async (path: string) => (await createBLAKE3()).update(readFileSync(path)).digest('hex');
  const notesBlock = (html: string): unknown => {
    // `[^<]*`: the block holds no `<` at all, so nothing in a note can end it or open a tag.
    const json = /<script type="application\/json" id="loupe-notes">([^<]*)<\/script>/.exec(html)?.[1];
    return json === undefined ? undefined : JSON.parse(json);
  };

  async function sidecarFor(file: string) {
    const [noted, bookmarked] = [...(await ingest(readFileSync(file))).calls.keys()];
    const path = join(dir, `notes-${Math.random().toString(36).slice(2)}.json`);
    const notes = {
      [noted!]: { text: 'retry </script><b>here</b>, key AKIAQX3YZ7PLMN4R2T6V', bookmarked: false },
      [bookmarked!]: { text: '', bookmarked: true },
      'a call this file does not have': { text: 'dropped', bookmarked: false },
    };
    writeFileSync(path, JSON.stringify({ loupeNotes: 1, contentHash: await blake3(file), notes }));
    return { path, noted: noted!, bookmarked: bookmarked! };
  }

  test('an html export carries the notes on its calls as data, redacted with the records', async () => {
    const { path, noted, bookmarked } = await sidecarFor(planted);
    const plain = await run(planted, '--format', 'html', '--notes', path);
    expect(notesBlock(plain.text)).toEqual({
      [noted]: { text: 'retry </script><b>here</b>, key AKIAQX3YZ7PLMN4R2T6V', bookmarked: false },
      [bookmarked]: { text: '', bookmarked: true },
    });
    const redacted = await run(planted, '--format', 'html', '--redact', '--notes', path);
    expect(notesBlock(redacted.text)).toEqual({
      [noted]: { text: 'retry </script><b>here</b>, key ‹aws-access-key›', bookmarked: false },
      [bookmarked]: { text: '', bookmarked: true },
    });
    expect(leakedSecrets(withPayload(redacted.text))).toEqual([]);
    // Without notes, no notes block.
    expect(notesBlock((await run(planted, '--format', 'html')).text)).toBeUndefined();
  });

  test('an md export lists the notes', async () => {
    const { path } = await sidecarFor(planted);
    expect((await run(planted, '--format', 'md', '--redact', '--notes', path)).text).toMatch(/## Notes\n\n- .*retry .*here.*, key ‹aws-access-key›\n- ★ /);
  });

  test('notes written on another file, or not notes at all, are refused', async () => {
    const { path } = await sidecarFor(planted);
    const other = await run('fixtures/acp/loupe-tee_text-frames.jsonl', '--format', 'html', '--notes', path);
    expect(other.code).toBe(1);
    expect(other.err).toContain('written on another file');
    const notNotes = join(dir, 'not-notes.json');
    writeFileSync(notNotes, '{"notes": []}');
    expect((await run(planted, '--format', 'html', '--notes', notNotes)).err).toContain('not a Loupe notes file');
    expect((await run(planted, '--format', 'jsonl', '--notes', path)).code).toBe(2);
  });
});

describe('loupe export --redact on the secret corpus', () => {
  const variants = secretVariants();
  const blake3 = async (path: string) => (await createBLAKE3()).update(readFileSync(path)).digest('hex');
  const corpus = join(dir, 'corpus.jsonl');
  writeFileSync(corpus, corpusSession());
  const harmless = join(dir, 'harmless.jsonl');
  writeFileSync(harmless, corpusSession(HARMLESS));

  /** A note on each `run-N` call holding the N-th text. */
  async function notesOn(file: string, texts: readonly string[]) {
    const keys = [...(await ingest(readFileSync(file))).calls.values()].filter((call) => call.id.startsWith('run-')).map((call) => call.key);
    const path = join(dir, `notes-${Math.random().toString(36).slice(2)}.json`);
    const notes = Object.fromEntries(texts.map((text, index) => [keys[index]!, { text, bookmarked: false }]));
    writeFileSync(path, JSON.stringify({ loupeNotes: 1, contentHash: await blake3(file), notes }));
    return path;
  }

  test.each(['jsonl', 'md', 'html'])('%s: no variant is left, in a call, a streamed message, stderr lines, a diff or a note', async (format) => {
    const notes = format === 'jsonl' ? [] : ['--notes', await notesOn(corpus, variants.map((variant) => variant.text))];
    const plain = await run(corpus, '--format', format, ...notes);
    const shown = (text: string) => (format === 'html' ? withPayload(text) : text);
    // Unredacted, every variant is there (md shows failed calls' output and the notes).
    expect(leaked(shown(plain.text), variants).length).toBe(new Set(variants.map((variant) => variant.value)).size);
    const redacted = await run(corpus, '--format', format, '--redact', ...notes);
    expect(redacted.code).toBe(0);
    expect(leaked(shown(redacted.text), variants)).toEqual([]);
    expect(redacted.err).toMatch(/replaced \d+ secrets/);
  });

  test('ordinary code is exported byte for byte, and nothing is reported', async () => {
    const { text, err } = await run(harmless, '--format', 'jsonl', '--redact');
    expect(text).toBe(readFileSync(harmless, 'utf8'));
    expect(err).toBe('loupe export: no secrets found\n');
  });

  test('a secret replaced in a note is counted, in the md and on stderr', async () => {
    const notes = await notesOn(harmless, ['rotate AKIAQX3YZ7PLMN4R2T6V tomorrow']);
    const { text, err } = await run(harmless, '--format', 'md', '--redact', '--notes', notes);
    expect(text).toContain('rotate ‹aws-access-key› tomorrow');
    expect(text).toContain('Redacted: 1 secrets (1 aws-access-key), each shown as ‹kind›.');
    expect(text).not.toContain('no secrets were found');
    expect(err).toMatch(/^loupe export: replaced 1 secrets \(1 in notes\)\n {2}aws-access-key: 1 \(line \d+\)\n$/);
  });
});
