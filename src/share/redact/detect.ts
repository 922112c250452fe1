// Finding secrets in text: secretlint's recommended preset (a maintained ruleset) and the pattern
// rules in rules.ts, merged into non-overlapping spans. The ledger's `secret:redacted/…` values are
// left alone: they are what a redaction already left.
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { encodedSpans } from './encoded';
import { gitleaksSpans } from './gitleaks';
import { ALREADY_REDACTED, PATTERN_RULES, SECRETLINT_KINDS, URL_KINDS } from './rules';

/** A secret inside base64 inside base64 (a .dockerconfigjson's `auth`) is found; deeper is not looked for. */
const MAX_DECODE_DEPTH = 2;

export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
  /** Found by a gitleaks rule: where one of Loupe's rules finds the same secret, its kind names it. */
  gitleaks?: boolean;
}

const compiledRules = PATTERN_RULES.map((rule) => ({ kind: rule.kind, regex: new RegExp(rule.pattern, `g${rule.flags ?? ''}d`), accept: rule.accept, literal: rule.literal }));

// The preset's rules one by one, less its comment filter: a session quoting `secretlint-disable`
// must not turn redaction off.
const secretlintConfig = {
  rules: recommendedPreset.rules.filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments').map((rule) => ({ id: rule.meta.id, rule })),
};

/** What replaces a secret of `kind`: its kind, so a reader knows what was there. */
export const placeholder = (kind: string): string => `‹${kind}›`;

export function patternSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const { kind, regex, accept, literal } of compiledRules) {
    if (literal !== undefined && !text.includes(literal)) continue;
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match; match = regex.exec(text)) {
      const verdict = accept ? accept(match, text) : true;
      if (!verdict) {
        // Not a secret; a match starting later inside it may be.
        regex.lastIndex = match.index + 1;
        continue;
      }
      const groups = match.indices?.groups;
      const [start, end] = verdict !== true ? verdict : (groups?.secret ?? groups?.quoted ?? groups?.bare ?? match.indices![0]!);
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
  return result.messages.map((message) => {
    const kind = secretlintKind(message.ruleId, message.messageId);
    const [start, end] = URL_KINDS.has(kind) ? passwordOf(text, message.range[0], message.range[1]) : message.range;
    return { start, end, kind };
  });
}

/** In a URL or connection string found whole, where its password is: the rest (scheme, user, host, path) stays. */
function passwordOf(text: string, start: number, end: number): [number, number] {
  const found = /:\/\/[^/\s:@]{0,128}:(?<secret>[^/\s@]{1,256})@/d.exec(text.slice(start, end));
  const at = found?.indices?.groups?.secret;
  return at ? [start + at[0], start + at[1]] : [start, end];
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
  if (!text.includes(ESCAPE)) return findInPlainText(text, depth);
  // Terminal colours are read around: `rg --color` cuts a key with escapes where it matched.
  const { plain, pieces } = withoutColours(text);
  const toText = (at: number): number => {
    const piece = pieces[lastAtOrBefore(pieces, at)]!;
    return piece.text + (at - piece.plain);
  };
  return (await findInPlainText(plain, depth)).map((span) => ({ start: toText(span.start), end: toText(span.end - 1) + 1, kind: span.kind }));
}

const ESCAPE = '\u001b';
// eslint-disable-next-line no-control-regex -- an escape sequence is what this matches
const COLOUR_SEQUENCE = /\u001b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]/g;

/** A stretch of text between colour escapes: where it starts in the text without them, and in the text. */
interface Piece {
  plain: number;
  text: number;
}

/** The text without CSI sequences, and the stretches it is made of. */
function withoutColours(text: string): { plain: string; pieces: Piece[] } {
  const pieces: Piece[] = [];
  let plain = '';
  let at = 0;
  for (const match of text.matchAll(COLOUR_SEQUENCE)) {
    pieces.push({ plain: plain.length, text: at });
    plain += text.slice(at, match.index);
    at = match.index + match[0].length;
  }
  pieces.push({ plain: plain.length, text: at });
  return { plain: plain + text.slice(at), pieces };
}

/** The index of the last piece starting at or before `at` in the plain text (the first one starts at 0). */
function lastAtOrBefore(pieces: readonly Piece[], at: number): number {
  let low = 0;
  let high = pieces.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (pieces[mid]!.plain <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}

async function findInPlainText(text: string, depth: number): Promise<SecretSpan[]> {
  // A base64 run's kind first: where a rule finds the whole run too (a docker config's `auth`), it is
  // named by what it holds. A percent-encoded secret found as written too keeps the plain kind.
  const encoded = depth < MAX_DECODE_DEPTH ? await encodedSpans(text, (decoded) => findSecrets(decoded, depth + 1)) : [];
  const spans = encoded.filter((span) => span.kind.startsWith('base64-'));
  spans.push(...patternSpans(text), ...(await secretlintSpans(text)), ...encoded.filter((span) => !span.kind.startsWith('base64-')));
  for (const span of gitleaksSpans(text)) spans.push({ ...span, gitleaks: true });
  for (const span of spans) span.end = tokenEnd(text, span);
  return mergeSpans(spans, text);
}

/** Characters of a token: base64 (either alphabet), hex, JWT-like parts joined by dots. */
const isTokenChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 43 || code === 47 || code === 61 || code === 95 || code === 45;
/** Spans shorter than this end where their rule says: a short value (a password) is not a token cut short. */
const MIN_EXTENDED = 16;

/**
 * Where a secret's token ends: a rule whose repeat is bounded (`{20,255}`, gitleaks' `{109,269}`)
 * stops inside a longer token, and the rest of the token is the rest of the secret. A span that
 * ends inside a run of token characters goes on to the run's end (a `.` within it too: a JWT's
 * parts). Each character is read once per span that reaches it.
 */
export function tokenEnd(text: string, span: SecretSpan): number {
  let end = span.end;
  if (end - span.start < MIN_EXTENDED || end >= text.length || !isTokenChar(text.charCodeAt(end - 1))) return end;
  for (;;) {
    const code = text.charCodeAt(end);
    if (isTokenChar(code)) end++;
    else if (code === 46 && isTokenChar(text.charCodeAt(end + 1))) end += 2;
    else return end;
  }
}

/** Which kind names a secret several rules find: Loupe's rules', then gitleaks' specific rules', then its generic rule's. */
const rank = (span: SecretSpan): number => (!span.gitleaks ? 2 : span.kind.startsWith('generic') ? 0 : 1);

/**
 * Sorted, joined spans. A joined span takes the kind of its longest part, of the best ranked (`rank`). A span that touches a
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
      if (rank(span) !== rank(last) ? rank(span) > rank(last) : length > last.longest) {
        last.longest = length;
        last.kind = span.kind;
        last.gitleaks = span.gitleaks;
      }
    } else merged.push({ ...span, longest: length });
  }
  return merged.map(({ start, end, kind }) => ({ start, end, kind }));
}

export function applySpans(text: string, spans: readonly SecretSpan[]): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    // A span without a kind is the rest of a secret shown by the kind before it (a streamed message's next chunk).
    out += text.slice(at, span.start) + (span.kind ? placeholder(span.kind) : '');
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
