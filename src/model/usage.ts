import type { Usage } from './types';

const USAGE_KEYS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedReadTokens', 'reasoningTokens'] as const;
const SNAKE: Record<string, (typeof USAGE_KEYS)[number]> = {
  input: 'inputTokens', output: 'outputTokens', input_tokens: 'inputTokens', output_tokens: 'outputTokens',
  total_tokens: 'totalTokens', cached_read_tokens: 'cachedReadTokens', reasoning_tokens: 'reasoningTokens',
  thoughtTokens: 'reasoningTokens',
  // Native logs (CONTRACTS §10): Claude's `message.usage`, Codex's `last_token_usage`.
  cache_read_input_tokens: 'cachedReadTokens', cached_input_tokens: 'cachedReadTokens', reasoning_output_tokens: 'reasoningTokens',
  // Gemini API `usageMetadata`, as Qwen Code's chat log keeps it on assistant records.
  promptTokenCount: 'inputTokens', candidatesTokenCount: 'outputTokens', totalTokenCount: 'totalTokens',
  cachedContentTokenCount: 'cachedReadTokens', thoughtsTokenCount: 'reasoningTokens',
  // Pi's `message.usage` (`input` is what the cache did not hold).
  cacheRead: 'cachedReadTokens',
  // Cline's `metrics` on each response.
  cacheReadTokens: 'cachedReadTokens',
};

/** Each key read as a count, by the count it is (a Map: a key such as `constructor` names none). */
const USAGE_NAMES: ReadonlyMap<string, (typeof USAGE_KEYS)[number]> = new Map([...USAGE_KEYS.map((key) => [key, key] as const), ...Object.entries(SNAKE)]);

/** Reads the token counts of ACP `Usage`, Grok's `turn_completed` usage or a ledger's usage; the rest stays in `raw`. */
export function readUsage(raw: Record<string, unknown> | undefined): Usage | undefined {
  if (!raw) return undefined;
  const usage: Usage = { raw };
  // `for in`, not Object.keys: no array per read (a parsed object inherits no enumerable key).
  for (const key in raw) {
    const value = raw[key];
    if (typeof value !== 'number') continue;
    const name = USAGE_NAMES.get(key);
    if (name) usage[name] = value;
  }
  // Pi prices each response itself: `cost: {input, output, cacheRead, cacheWrite, total}`, in US dollars.
  const cost = raw.cost;
  if (typeof cost === 'object' && cost !== null && !Array.isArray(cost) && typeof (cost as { total?: unknown }).total === 'number') {
    usage.cost = { amount: (cost as { total: number }).total, currency: 'USD' };
  }
  return usage;
}
