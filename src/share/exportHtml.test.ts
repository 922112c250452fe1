import { expect, test } from 'vitest';
import { htmlPage } from './exportHtml';

const viewer = { script: 'void 0;', style: '' };

test('the session in the page decodes to its bytes exactly, across the parts it is written in', async () => {
  // Not a multiple of 3, and several base64 parts long.
  const records = Uint8Array.from({ length: 200_001 }, (_, index) => (index * 7919) % 256);
  const html = (await htmlPage(records, viewer, { title: 'big.jsonl' })).join('');
  const payload = /id="loupe-session"[^>]*>([^<]*)</.exec(html)?.[1] ?? '';
  expect(new Uint8Array(Buffer.from(payload, 'base64'))).toEqual(records);
});

test('a title is text in the page, never markup', async () => {
  const html = (await htmlPage(new Uint8Array(), viewer, { title: '"><script>alert(1)</script>.jsonl' })).join('');
  expect(html).not.toContain('<script>alert(1)');
  expect(html).toContain('<title>&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;.jsonl — Loupe</title>');
});

test('a redacted page says so in its title and to its viewer, in the md export\'s words; an unredacted one says nothing', async () => {
  const redacted = (await htmlPage(new Uint8Array(), viewer, { title: 'run.jsonl', redacted: new Map([['aws-access-key', 2], ['github-token', 1]]) })).join('');
  expect(redacted).toContain('<title>run.jsonl (redacted) — Loupe</title>');
  expect(redacted).toContain('data-redacted="Redacted: 3 secrets (2 aws-access-key, 1 github-token), each shown as ‹kind›."');
  const none = (await htmlPage(new Uint8Array(), viewer, { title: 'run.jsonl', redacted: new Map() })).join('');
  expect(none).toContain('data-redacted="Redacted: no secrets were found."');
  const plain = (await htmlPage(new Uint8Array(), viewer, { title: 'run.jsonl' })).join('');
  expect(plain).toContain('<title>run.jsonl — Loupe</title>');
  expect(plain).not.toContain('data-redacted');
});
