import { describe, expect, test } from 'vitest';
import { ingest } from '../../model';
import { redactText } from './detect';
import { redactLines } from './redactLine';
import { corpusSession, HARMLESS, leaked, secretVariants } from '../testing/secretCorpus';

const variants = secretVariants();

describe('the secret corpus', () => {
  test('each variant is replaced, by its kind', async () => {
    for (const variant of variants) {
      const { text, kinds } = await redactText(variant.text);
      expect(leaked(text, [variant]), variant.text).toEqual([]);
      // An encoded secret under a secret's name (`_auth=…`) may be named by the name.
      if (!variant.kind.startsWith('base64-')) expect(kinds, variant.text).toContain(variant.kind);
    }
  });

  test('ordinary code that names secrets without holding one is left as it is', async () => {
    for (const text of HARMLESS) expect(await redactText(text), text).toEqual({ text, kinds: [] });
  });

  test('a password in a URL is replaced alone: scheme, user, host and path stay', async () => {
    expect((await redactText('curl https://bob:pw@example.com/x')).text).toBe('curl https://bob:‹url-password›@example.com/x');
    expect((await redactText('postgres://app:S3cr3tP4ssw0rd@db.internal:5432/app?sslmode=require')).text).toBe('postgres://app:‹url-password›@db.internal:5432/app?sslmode=require');
    expect((await redactText('REDIS_URL=redis://:hunter22@cache:6379/0')).text).toBe('REDIS_URL=redis://:‹url-password›@cache:6379/0');
  });

  test('a session quoting secretlint-disable does not turn redaction off', async () => {
    const sendgrid = 'SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    expect((await redactText(`// secretlint-disable\nconst key = "${sendgrid}";`)).text).toBe('// secretlint-disable\nconst key = "‹sendgrid-key›";');
  });

  test('in a session, each variant is gone from every place: a call, a message streamed in chunks, stderr lines, a diff', async () => {
    const source = corpusSession();
    expect(leaked(source, variants)).toHaveLength(new Set(variants.map((variant) => variant.value)).size);
    const redacted = (await redactLines(source.split('\n'))).map((result) => result.text);
    expect(leaked(redacted.join('\n'), variants)).toEqual([]);
    for (const line of redacted.filter(Boolean)) expect(() => JSON.parse(line) as unknown).not.toThrow();
    // As the viewer joins them: the messages read whole, with each secret's kind once.
    const session = await ingest(redacted.join('\n'));
    const messages = session.items.flatMap((item) => (item.type === 'message' && item.role === 'agent' ? [item.text] : []));
    expect(messages).toHaveLength(variants.length);
    expect(messages[0]).toBe(`Here is what I found:\n${(await redactText(variants[0]!.text)).text}`);
  });

  test('the harmless corpus, placed the same way, is not changed by a byte', async () => {
    const source = corpusSession(HARMLESS);
    const redacted = await redactLines(source.split('\n'));
    expect(redacted.flatMap((result) => result.kinds)).toEqual([]);
    expect(redacted.map((result) => result.text).join('\n')).toBe(source);
  });
});
