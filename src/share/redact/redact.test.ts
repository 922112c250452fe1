import { describe, expect, test } from 'vitest';
import { ingest, summarize } from '../../model';
import { ALREADY_REDACTED_VALUE, leakedSecrets, PLANTED_SECRETS, plantedSession } from '../testing/plantedCorpus';
import { redactLine, redactLines } from './redactLine';
import { redactText } from './detect';

describe('redaction', () => {
  test('every planted secret, in every place and every escaping, is replaced; the lines stay JSON', async () => {
    const source = plantedSession();
    expect(leakedSecrets(source)).toHaveLength(new Set(PLANTED_SECRETS.map((secret) => secret.value)).size);
    const lines = source.split('\n');
    const redacted = (await redactLines(lines)).map((result) => result.text);
    expect(leakedSecrets(redacted.join('\n'))).toEqual([]);
    for (const line of redacted.filter(Boolean)) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  test('the redacted session reads back as the same calls, labels and statuses', async () => {
    const source = plantedSession();
    const redacted = (await redactLines(source.split('\n'))).map((result) => result.text).join('\n');
    const shape = (summary: ReturnType<typeof summarize>) => summary.calls.map((call) => [call.id, call.label, call.status]);
    expect(shape(summarize(await ingest(redacted)))).toEqual(shape(summarize(await ingest(source))));
  });

  test('each secret is replaced by its kind', async () => {
    for (const secret of PLANTED_SECRETS) {
      const { text, kinds } = await redactText(secret.text);
      expect(text, secret.kind).not.toContain(secret.value);
      expect(kinds.length, secret.kind).toBeGreaterThan(0);
    }
    expect((await redactText('export AWS_ACCESS_KEY_ID=AKIAQX3YZ7PLMN4R2T6V')).text).toBe('export AWS_ACCESS_KEY_ID=‹aws-access-key›');
    expect((await redactText('Authorization: Bearer Zm9vOmJhcjpiYXo6cXV4')).text).toBe('Authorization: Bearer ‹authorization-header›');
  });

  test('a secret behind JSON escapes is written back redacted, the rest of the line byte for byte', async () => {
    const line = '{"9":"nine","a":"\\u0041KIAQX3YZ7PLMN4R2T6V and \\/tmp","1":"one"}';
    const { text, kinds } = await redactLine(line);
    expect(kinds).toEqual(['aws-access-key']);
    // Integer-like keys keep their place in the text: key order decides subjects.
    expect(text).toBe('{"9":"nine","a":"‹aws-access-key› and /tmp","1":"one"}');
  });

  test('the value under a secret key is replaced whatever it looks like; the ledger redacted form is kept', async () => {
    expect((await redactLine('{"user":"dev","password":"hunter2"}')).text).toBe('{"user":"dev","password":"‹secret-field›"}');
    const ledger = `{"args":{"api_key":"${ALREADY_REDACTED_VALUE}","note":"password=${ALREADY_REDACTED_VALUE}"}}`;
    expect(await redactLine(ledger)).toEqual({ text: ledger, kinds: [] });
  });

  test('a secret in text around JSON (a text log) is replaced, the JSON is left whole', async () => {
    const line = '12:00 OUT: token ghp_R8mK2pX9vL4qN7tB1wZ5yC3dF6gH0jS2aQ4e {"jsonrpc":"2.0","id":1}';
    expect((await redactLine(line)).text).toBe('12:00 OUT: token ‹github-token› {"jsonrpc":"2.0","id":1}');
  });

  test('a line with nothing secret is returned as it is', async () => {
    const line = '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"tokens: 1200, \\u00e9"}}}}';
    expect(await redactLine(line)).toEqual({ text: line, kinds: [] });
  });

  test('a secret written base64- or percent-encoded is found in its decoded text; the base64 run goes whole, the percent run only where the secret is', async () => {
    const pullSecret = btoa(JSON.stringify({ auths: { 'r.example.com': { auth: btoa('deploy:ghp_R8mK2pX9vL4qN7tB1wZ5yC3dF6gH0jS2aQ4e') } } }));
    expect(pullSecret).toMatch(/==$/); // its padding goes with it
    expect((await redactText(`.dockerconfigjson: ${pullSecret}\n`)).text).toBe('.dockerconfigjson: ‹base64-github-token›\n');
    // Glued to a colour escape, as in terminal output: read from the alignment that decodes to text.
    expect((await redactText(`\u001b[32m${btoa('key=AKIAQX3YZ7PLMN4R2T6V')}\u001b[0m`)).text).toBe('\u001b[32m‹base64-aws-access-key›\u001b[0m');
    expect((await redactText('?next=https%3A%2F%2Fadmin%3AS3cr%21t%40db.internal%2Fapp&x=1')).text).toBe('?next=https%3A%2F%2Fadmin%3A‹url-encoded-url-password›%40db.internal%2Fapp&x=1');
  });

  test('encoded text with no secret in it, and encoded bytes that are not text, are left alone', async () => {
    const harmless = [
      // `echo … | base64` of a plain sentence, and of text with "key" words but no secret.
      btoa('hello from the build server, nothing to see here'),
      btoa('api_key is read from the environment at start-up'),
      // Bytes that are not text: an image's base64, a sha256 in hex and in base64.
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
      // Paths and percent-encoded URLs with nothing secret.
      '/home/dev/projects/loupe/src/model/redact/encoded.ts',
      'https://example.com/search?q=how%20to%20rotate%20keys%3F&lang=en',
    ];
    for (const text of harmless) expect(await redactText(text), text).toEqual({ text, kinds: [] });
  });
});
