import { describe, expect, test } from 'vitest';
import { redactText } from './detect';
import { GITLEAKS_VERSION } from './gitleaks';
import { contextSamples, gitleaksSamples, ordinaryLines, PLACEMENTS, readBack } from '../testing/leakCorpus';
import { createLineRedactor } from './redactLine';
import gitleaks from './gitleaks/rules.json';

async function redactAll(lines: readonly string[]): Promise<string[]> {
  const redactor = createLineRedactor();
  const out: string[] = [];
  for (let at = 0; at < lines.length; at += 500) for (const result of await redactor.push(lines.slice(at, at + 500))) out.push(result.text);
  for (const result of await redactor.end()) out.push(result.text);
  return out;
}

/** Made once: a sample per rule costs seconds (each is checked as gitleaks would check it). */
let samples: ReturnType<typeof gitleaksSamples> | undefined;
const secretsOf = () => [...(samples ??= gitleaksSamples()), ...contextSamples()];
/**
 * Each secret in three of the places, a different three for the next one, so every kind and every
 * place are covered while the test reads a third of what `npm run redact:corpus` (every secret in
 * every place) reads.
 */
const PLACES_PER_SECRET = 3;

describe('the leak corpus (gitleaks rules and context kinds)', () => {
  test('gitleaks rules are vendored with their version, and nearly every rule yields a sample', () => {
    expect(GITLEAKS_VERSION).toMatch(/^v8\./);
    expect((samples ??= gitleaksSamples()).length).toBeGreaterThan(gitleaks.rules.length * 0.9);
  });

  test('no secret survives a JSONL export, in any place a session keeps text', async () => {
    const secrets = secretsOf();
    const placed: { value: string; name: string; joined: boolean; from: number; to: number }[] = [];
    const lines: string[] = [];
    secrets.forEach((secret, index) => {
      const places = Array.from({ length: PLACES_PER_SECRET }, (_, k) => PLACEMENTS[(index * PLACES_PER_SECRET + k) % PLACEMENTS.length]!);
      for (const placement of places) {
        const own = placement.lines(secret.text, index);
        placed.push({ value: secret.value, name: `${secret.kind} in ${placement.name}`, joined: placement.joined ?? false, from: lines.length, to: lines.length + own.length });
        lines.push(...own, JSON.stringify({ jsonrpc: '2.0', id: index, result: {} }));
      }
    });
    const redacted = await redactAll(lines);
    const survivors = placed.filter(({ value, joined, from, to }) => readBack(redacted.slice(from, to), joined).includes(value)).map(({ name }) => name);
    expect(survivors).toEqual([]);
  }, 60_000);

  test('a secret is replaced whole and nothing else on its line changes', async () => {
    for (const secret of secretsOf()) {
      const whole = secret.whole ?? secret.value;
      const at = secret.text.indexOf(whole);
      const { text } = await redactText(secret.text);
      expect(text.startsWith(secret.text.slice(0, at)), secret.kind).toBe(true);
      expect(text.endsWith(secret.text.slice(at + whole.length)), secret.kind).toBe(true);
    }
  }, 60_000);

  test('ordinary lines (code, logs, URLs, hashes, UUIDs, SHAs, base64 of bytes) come through unchanged', async () => {
    const ordinary = ordinaryLines();
    const lines = ordinary.flatMap((line, index) => PLACEMENTS[index % PLACEMENTS.length]!.lines(line, index));
    const redacted = await redactAll(lines);
    const changed = lines.filter((line, index) => redacted[index] !== line);
    expect(changed.length).toBeLessThanOrEqual(5);
  }, 60_000);

  test('the leak classes of issue 31, one by one', async () => {
    const cases: [string, string][] = [
      ['export VAULT_TOKEN=s.Xq7LmN2pR8tV4wY6zA1bC3dE', 'export VAULT_TOKEN=‹password›'],
      ['DB_PASSWORD=Tr0ub4dor&3xK9!q', 'DB_PASSWORD=‹password›'],
      ['SECRET_KEY=/PZQZupc9P7bRtE4tSMAdzXdY+SR5ICf8IkscSWk=', 'SECRET_KEY=‹password›'],
      ['curl -H "Authorization: Bearer 7|IShuBNOfROcOaLMjc9qL7hwvoMhMTZN8rNdw7Jhn" https://x.example.com', 'curl -H "Authorization: Bearer ‹authorization-header›" https://x.example.com'],
      ['Authorization: Bearer abc%2Fdef%3D%3Dghijklmnop', 'Authorization: Bearer ‹authorization-header›'],
      ['[![codecov](https://codecov.io/gh/acme/app/graph/badge.svg?token=ntOt5bnmGQ)](https://codecov.io/gh/acme/app)', '[![codecov](https://codecov.io/gh/acme/app/graph/badge.svg?token=‹password›)](https://codecov.io/gh/acme/app)'],
      [`    'secret_key' => 'QmtcVWTWXnDeBkyNDrnpZDtkEVta',`, `    'secret_key' => '‹password›',`],
      ['<add key="ClearTextPassword" value="9YTfS4sNt7#zo2s" />', '<add key="ClearTextPassword" value="‹password›" />'],
      ['curl -b "_gitlab_session=1fa585235cf070919ed2a25d8053c65d" https://gitlab.example.com', 'curl -b "_gitlab_session=‹cookie›" https://gitlab.example.com'],
      ['{"auths":{"r.example.com":{"auth":"ZGVwbG95OmhCTTJVQm1NUDB5NkVW"}}}', '{"auths":{"r.example.com":{"auth":"‹docker-auth›"}}}'],
      ['token dop_v1_0f3c2a9b8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d here', 'token ‹digitalocean-pat› here'],
    ];
    for (const [text, redacted] of cases) expect((await redactText(text)).text, text).toBe(redacted);
    // A long key goes whole: the rule's bound (269) does not leave a tail.
    const bedrock = `ABSK${'QmVkcm9ja0FQSUtleS1hYmNk'.repeat(25)}`;
    expect((await redactText(`AWS_BEARER_TOKEN_BEDROCK=${bedrock} ok`)).text).toMatch(/^AWS_BEARER_TOKEN_BEDROCK=‹[a-z0-9-]+› ok$/);
    // gitleaks' short-lived Bedrock rule matches the key's prefix alone: the token and signature after it go too.
    const shortLived = `bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t${'L3Rva2VuJlgtQW16LVNpZ25hdHVyZT0'.repeat(18)}`;
    expect((await redactText(`key: ${shortLived} ok`)).text).toBe('key: ‹aws-amazon-bedrock-api-key-short-lived› ok');
  });
});
