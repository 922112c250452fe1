// A file that is not text (an image, an archive, random bytes) given where a session goes: each
// command refuses it in one line and exits 1, instead of reading hundreds of bad lines (and
// `loupe export --format html` writing a 1.6 MB page of them with exit 0).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { binaryReason, binaryReasonByDecoding } from './files';
import { main as summarize } from './summarize';
import { main as exportMain } from './export';
import { main as diff } from './diff';
import { main as open } from './open';
import type { CliIo } from './summarize';

const SESSION = 'fixtures/grok/esc-interrupt.updates.jsonl';
let dir: string;
const files: Record<string, string> = {};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-binary-'));
  // A PNG's first bytes (NULs among them), then a body of every byte value.
  files.png = join(dir, 'screenshot.png');
  writeFileSync(files.png, Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256))]));
  files.gz = join(dir, 'session.jsonl.gz');
  writeFileSync(files.gz, gzipSync(readFileSync(SESSION)));
  // No NUL at all, but bytes that are not UTF-8 (0x80–0xFF, each alone).
  files.noise = join(dir, 'noise.jsonl');
  writeFileSync(files.noise, Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i % 2 === 0 ? 0x80 + (i % 127) : 0x0a + (i % 3 === 0 ? 0 : 0x16)))));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(main: (argv: readonly string[], io: CliIo) => Promise<number>, argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (text) => void (out += `${text}\n`), err: (text) => void (err += `${text}\n`) });
  return { code, out, err };
}

describe.each(['png', 'gz', 'noise'])('a %s file', (kind) => {
  test('summarize, export (each format), diff and open refuse it: exit 1, one line saying it is not text', async () => {
    const file = files[kind]!;
    const html = join(dir, `${kind}.html`);
    const runs = {
      summarize: await run(summarize, ['summarize', file]),
      'export html': await run(exportMain, [file, '--format', 'html', '--out', html]),
      'export md': await run(exportMain, [file, '--format', 'md']),
      'export jsonl': await run(exportMain, [file, '--format', 'jsonl']),
      diff: await run(diff, [file, SESSION]),
      open: await run((argv, io) => open(argv, io, { openBrowser: () => undefined }), [file, '--no-browser']),
    };
    for (const [name, result] of Object.entries(runs)) {
      expect({ name, code: result.code, out: result.out }).toEqual({ name, code: name === 'diff' ? 2 : 1, out: '' });
      expect(result.err).toMatch(new RegExp(`^loupe ${name.split(' ')[0]}: ${file.replace(/[.\\/]/g, '\\$&')} is not a session: (it holds binary data \\(a NUL byte at offset \\d+\\)|it is not UTF-8 text \\([\\d,]+ of its first [\\d,]+ characters do not decode\\)), and sessions are text \\(JSON lines\\)\\n$`));
    }
    expect(existsSync(html)).toBe(false);
  });
});

test('text is still text: a session with a few bytes that are not UTF-8, or a multi-byte character cut at the probe’s end', async () => {
  const session = readFileSync(SESSION);
  const latin1 = join(dir, 'latin1.jsonl');
  writeFileSync(latin1, Buffer.concat([session, Buffer.from('{"note":"caf\xe9"}\n', 'latin1')]));
  expect((await run(summarize, ['summarize', latin1])).code).toBe(0);
  expect(binaryReason(Buffer.from('{"a":"日本"}\n'.repeat(100)).subarray(0, 1001))).toBeNull();
  expect(binaryReason(Buffer.alloc(0))).toBeNull();
});

test('an OpenCode database is not refused as binary: it is the one binary format Loupe reads', () => {
  const db = readFileSync(new URL('../../fixtures/native/opencode-1.18.33_tidy-notes.db', import.meta.url));
  expect(binaryReason(db.subarray(0, 65536))).toBeNull();
});

test('valid UTF-8 is told text without decoding it, as decoding it told: random bytes, cut characters, surrogates, overlong forms, U+FFFD of its own', () => {
  // Pieces that meet at every boundary: ASCII, 2-, 3- and 4-byte characters, each cut short, bytes
  // UTF-8 never holds, encoded surrogates, overlong forms, U+FFFD written as such, and noise.
  const valid = [[0x7b, 0x22, 0x61, 0x22, 0x0a], [0xc3, 0xa9], [0xe6, 0x97, 0xa5], [0xf0, 0x9f, 0x98, 0x80], [0xef, 0xbf, 0xbd], [0xef, 0xbb, 0xbf]];
  const invalid = [
    [0xc3], [0xe6, 0x97], [0xe6], [0xf0, 0x9f, 0x98], [0xf0, 0x9f], [0x80], [0xbf], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80], [0xf8], [0xff], [0xfe],
  ];
  // Mostly valid pieces, so that the quick answer is asked often, with now and then one that is not.
  const piece = fc.oneof(
    { arbitrary: fc.constantFrom(...valid), weight: 12 },
    { arbitrary: fc.constantFrom(...invalid), weight: 1 },
    { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => [...bytes].map((byte) => byte || 1)), weight: 1 },
  );
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 60 }),
      (chosen) => {
        const bytes = Uint8Array.from(chosen.flat());
        expect(binaryReason(bytes)).toBe(binaryReasonByDecoding(bytes));
      },
    ),
    { numRuns: 3000 },
  );
  // Valid UTF-8, but mostly U+FFFD of its own: the decode counted those as bytes that do not decode.
  const replacements = Buffer.from('\uFFFD'.repeat(50) + 'ok');
  expect(binaryReason(replacements)).toBe(binaryReasonByDecoding(replacements));
  expect(binaryReason(replacements)).not.toBeNull();
});
