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
