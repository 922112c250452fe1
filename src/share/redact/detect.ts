// Finding secrets in text: secretlint's recommended preset (a maintained ruleset) and the pattern
// rules in rules.ts, merged into non-overlapping spans. The ledger's `secret:redacted/…` values are
// left alone: they are what a redaction already left.
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { encodedSpans } from './encoded';
import { ALREADY_REDACTED, PATTERN_RULES, SECRETLINT_KINDS } from './rules';

/** A secret inside base64 inside base64 (a .dockerconfigjson's `auth`) is found; deeper is not looked for. */
const MAX_DECODE_DEPTH = 2;

export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

const compiledRules = PATTERN_RULES.map((rule) => ({ kind: rule.kind, regex: new RegExp(rule.pattern, `g${rule.flags ?? ''}d`) }));

const secretlintConfig = { rules: [{ id: recommendedPreset.meta.id, rule: recommendedPreset }] };

/** What replaces a secret of `kind`: its kind, so a reader knows what was there. */
export const placeholder = (kind: string): string => `‹${kind}›`;

export function patternSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const { kind, regex } of compiledRules) {
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match; match = regex.exec(text)) {
      const [start, end] = match.indices?.groups?.secret ?? match.indices![0]!;
      if (end > start) spans.push({ start, end, kind });
      if (match[0].length === 0) regex.lastIndex++;
    }
  }
  return spans;
}

export async function secretlintSpans(text: string): Promise<SecretSpan[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'session.txt', ext: '.txt', contentType: 'text' },
    options: { config: secretlintConfig, noPhysicFilePath: true },
  });
  return result.messages.map((message) => ({ start: message.range[0], end: message.range[1], kind: secretlintKind(message.ruleId, message.messageId) }));
}

function secretlintKind(ruleId: string, messageId: string): string {
  const rule = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return SECRETLINT_KINDS[`${rule}/${messageId}`] ?? SECRETLINT_KINDS[rule] ?? rule;
}

/**
 * Every secret in `text`, as sorted spans that do not overlap (overlapping finds are joined),
 * including secrets written base64- or percent-encoded (see encoded.ts).
 */
export async function findSecrets(text: string, depth = 0): Promise<SecretSpan[]> {
  if (text.length < 8) return [];
  const spans = [...patternSpans(text), ...(await secretlintSpans(text))];
  if (depth < MAX_DECODE_DEPTH) spans.push(...(await encodedSpans(text, (decoded) => findSecrets(decoded, depth + 1))));
  return mergeSpans(spans, text);
}

/**
 * Sorted, joined spans. A joined span takes the kind of its longest part. A span that touches a
 * ledger `secret:redacted/…` value is dropped: that value is already safe to show.
 */
export function mergeSpans(spans: SecretSpan[], text: string): SecretSpan[] {
  const kept: { start: number; end: number }[] = [];
  if (text.includes('secret:redacted/')) {
    for (const match of text.matchAll(ALREADY_REDACTED)) kept.push({ start: match.index, end: match.index + match[0].length });
  }
  const candidates = spans
    .filter((span) => !kept.some((safe) => span.start < safe.end && safe.start < span.end))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: (SecretSpan & { longest: number })[] = [];
  for (const span of candidates) {
    const last = merged[merged.length - 1];
    const length = span.end - span.start;
    if (last && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      if (length > last.longest) {
        last.longest = length;
        last.kind = span.kind;
      }
    } else merged.push({ ...span, longest: length });
  }
  return merged.map(({ start, end, kind }) => ({ start, end, kind }));
}

export function applySpans(text: string, spans: readonly SecretSpan[]): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + placeholder(span.kind);
    at = span.end;
  }
  return out + text.slice(at);
}

export interface Redacted {
  text: string;
  /** The kind of each secret replaced, in order. */
  kinds: string[];
}

/** `text` with every secret replaced by its kind. */
export async function redactText(text: string): Promise<Redacted> {
  const spans = await findSecrets(text);
  return { text: spans.length ? applySpans(text, spans) : text, kinds: spans.map((span) => span.kind) };
}
