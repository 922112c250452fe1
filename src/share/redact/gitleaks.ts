// gitleaks' rules (gitleaks/rules.json: its config/gitleaks.toml as data, MIT, refreshed by
// scripts/refresh-gitleaks-rules.mjs) matched as gitleaks matches them, with RE2 semantics (re2js:
// a pure-JS port of RE2, linear in the text whatever the pattern), and read the way gitleaks reads a
// finding: the secret group (or the first group that matched), the rule's entropy floor (and a digit
// for generic rules), the global and the rule's allowlists (regexes on the secret, the match or the
// line; stopwords).
//
// Keywords first, as gitleaks does: one Aho-Corasick pass over the text (each character read once,
// ASCII case folded) finds every rule keyword; a rule runs only around its keywords' places (a
// window of WINDOW_BEFORE characters before and WINDOW_AFTER after, windows that touch joined), so
// most text is read by no rule at all, and none is read by a rule more than once.
//
// A rule's bounded repeat can end inside a longer token (a 600-character Bedrock key, a 269-long
// bound): detect.ts extends every span to the end of its token, so no tail is left.
import { RE2JS } from 're2js';
import data from './gitleaks/rules.json';

interface Allowlist {
  condition?: string;
  regexTarget?: string;
  regexes?: string[];
  stopwords?: string[];
}

interface RuleData {
  id: string;
  regex: string;
  secretGroup?: number;
  entropy?: number;
  keywords: string[];
  allowlists?: Allowlist[];
}

export interface GitleaksSpan {
  start: number;
  end: number;
  kind: string;
}

/** Where a rule looks around a keyword: a match holds its keyword within this many characters of its start (generic rules: a 50-character name, 20 of spacing). */
const WINDOW_BEFORE = 512;
/** And after it: the longest values (a private key's body) go on past it; detect.ts extends a span cut here to its token's end. */
const WINDOW_AFTER = 4096;

export const GITLEAKS_VERSION: string = data.source.version;
const RULES = data.rules as RuleData[];

interface CompiledAllowlist {
  and: boolean;
  target: 'secret' | 'match' | 'line';
  regexes: RE2JS[];
  stopwords: string[];
}

const compileAllowlist = (list: Allowlist): CompiledAllowlist => ({
  and: list.condition === 'AND',
  target: list.regexTarget === 'match' || list.regexTarget === 'line' ? list.regexTarget : 'secret',
  regexes: (list.regexes ?? []).map((regex) => RE2JS.compile(regex)),
  stopwords: list.stopwords ?? [],
});

let globalAllowlists: CompiledAllowlist[] | undefined;
const compiledRules = new Map<number, { regex: RE2JS; allowlists: CompiledAllowlist[] }>();

/** A rule compiled when a keyword first asks for it (the whole set takes ~150 ms). */
function compiled(index: number): { regex: RE2JS; allowlists: CompiledAllowlist[] } {
  let rule = compiledRules.get(index);
  if (!rule) {
    const data = RULES[index]!;
    rule = { regex: RE2JS.compile(data.regex), allowlists: (data.allowlists ?? []).map(compileAllowlist) };
    compiledRules.set(index, rule);
  }
  return rule;
}

/** An Aho-Corasick automaton of every keyword (lower case): `rulesAt[state]` lists the rules whose keyword ends in that state, with the keyword's length. */
interface Automaton {
  next: Map<number, number>[];
  fail: Int32Array;
  /** For each state, the keywords ending there (its own and its fail chain's): [rule, keyword length] pairs. */
  found: [number, number][][];
}

let automaton: Automaton | undefined;

function buildAutomaton(): Automaton {
  const next: Map<number, number>[] = [new Map<number, number>()];
  const own: [number, number][][] = [[]];
  RULES.forEach((rule, index) => {
    for (const keyword of new Set(rule.keywords)) {
      let state = 0;
      for (let at = 0; at < keyword.length; at++) {
        const code = keyword.charCodeAt(at);
        let to = next[state]!.get(code);
        if (to === undefined) {
          to = next.length;
          next.push(new Map<number, number>());
          own.push([]);
          next[state]!.set(code, to);
        }
        state = to;
      }
      own[state]!.push([index, keyword.length]);
    }
  });
  const fail = new Int32Array(next.length);
  const found: [number, number][][] = own.map((list) => list.slice());
  const queue: number[] = [...next[0]!.values()];
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (const [code, to] of next[state]!) {
      let back = fail[state]!;
      while (back > 0 && !next[back]!.has(code)) back = fail[back]!;
      const target = next[back]!.get(code);
      fail[to] = target !== undefined && target !== to ? target : 0;
      found[to]!.push(...found[fail[to]]!);
      queue.push(to);
    }
  }
  return { next, fail, found };
}

/** For each rule with a keyword in `text`, the windows it reads: [start, end] pairs, ascending, apart. */
function windowsByRule(text: string): Map<number, number[]> {
  automaton ??= buildAutomaton();
  const { next, fail, found } = automaton;
  const windows = new Map<number, number[]>();
  let state = 0;
  for (let at = 0; at < text.length; at++) {
    let code = text.charCodeAt(at);
    if (code >= 65 && code <= 90) code |= 0x20;
    for (;;) {
      const to = next[state]!.get(code);
      if (to !== undefined) {
        state = to;
        break;
      }
      if (state === 0) break;
      state = fail[state]!;
    }
    const hits = found[state]!;
    for (let index = 0; index < hits.length; index++) {
      const [rule, length] = hits[index]!;
      const from = Math.max(0, at + 1 - length - WINDOW_BEFORE);
      const to = Math.min(text.length, at + 1 + WINDOW_AFTER);
      let list = windows.get(rule);
      if (!list) windows.set(rule, (list = []));
      // Windows come in order of their keyword's end: one that touches the last is joined to it.
      if (list.length && from <= list[list.length - 1]!) list[list.length - 1] = Math.max(list[list.length - 1]!, to);
      else list.push(from, to);
    }
  }
  return windows;
}

/** `name=` or `name: ` at a match's start. */
const NAME_BEFORE_VALUE = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}\s{0,2}[=:]\s{0,2}["']?/;
/** A name for ids, hashes and digests: what it holds identifies, it does not grant (`authId`, `auth_hash`, `tokenSha256`). */
const NOT_A_SECRET_NAME = /(?:[_.-]|[a-z](?=[A-Z]))(?:[Ii][Dd]s?|[Uu]u[Ii][Dd]|[Hh]ash|[Ss]ha\d*|[Dd]igest|[Cc]hecksum|[Ee][Tt]ag|[Cc]ount|[Ll]en(?:gth)?)["'\s]*(?:=|:|=>|,)?[\s"'`=]*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Loupe's reading of gitleaks' generic rule: a value under a name for an id, a hash or a count
 * (`"authId":"…uuid…"`, `"auth_hash": "…"`), or a bare UUID, identifies something; it is kept.
 */
function notASecret(before: string, secret: string): boolean {
  return UUID.test(secret) || NOT_A_SECRET_NAME.test(before);
}

function shannonEntropy(text: string): number {
  const counts = new Map<number, number>();
  for (let at = 0; at < text.length; at++) counts.set(text.charCodeAt(at), (counts.get(text.charCodeAt(at)) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / text.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

function allowed(lists: readonly CompiledAllowlist[], secret: string, match: string, line: () => string): boolean {
  for (const list of lists) {
    const target = list.target === 'secret' ? secret : list.target === 'match' ? match : line();
    const byRegex = list.regexes.length > 0 ? list.regexes.some((regex) => regex.matcher(target).find()) : undefined;
    let byWord: boolean | undefined;
    if (list.stopwords.length > 0) {
      const lower = secret.toLowerCase();
      byWord = list.stopwords.some((word) => lower.includes(word));
    }
    const checks = [byRegex, byWord].filter((check) => check !== undefined);
    if (checks.length && (list.and ? checks.every(Boolean) : checks.some(Boolean))) return true;
  }
  return false;
}

/** Every gitleaks finding in `text`: the secret's span, named by the rule's id. */
export function gitleaksSpans(text: string): GitleaksSpan[] {
  const spans: GitleaksSpan[] = [];
  const windows = windowsByRule(text);
  if (!windows.size) return spans;
  globalAllowlists ??= (data.allowlists as Allowlist[]).map(compileAllowlist);
  for (const [index, list] of windows) {
    const rule = RULES[index]!;
    const { regex, allowlists } = compiled(index);
    for (let at = 0; at < list.length; at += 2) {
      const offset = list[at]!;
      const window = text.slice(offset, list[at + 1]);
      const matcher = regex.matcher(window);
      while (matcher.find()) {
        let group = rule.secretGroup ?? 0;
        if (!group) {
          for (let g = 1; g <= matcher.groupCount(); g++) {
            if (matcher.start(g) >= 0 && matcher.end(g) > matcher.start(g)) {
              group = g;
              break;
            }
          }
        }
        const start = matcher.start(group);
        const end = matcher.end(group);
        if (start < 0 || end <= start) continue;
        const secret = window.slice(start, end);
        if (rule.entropy !== undefined && (shannonEntropy(secret) <= rule.entropy || (rule.id.startsWith('generic') && !/[0-9]/.test(secret)))) continue;
        const match = window.slice(matcher.start(0), matcher.end(0));
        const line = () => {
          const from = text.lastIndexOf('\n', offset + start) + 1;
          const to = text.indexOf('\n', offset + end);
          return text.slice(from, to < 0 ? text.length : to);
        };
        if (allowed(globalAllowlists, secret, match, line) || allowed(allowlists, secret, match, line)) continue;
        if (rule.id.startsWith('generic') && notASecret(window.slice(matcher.start(0), start), secret)) continue;
        // A rule without a group matches `name=value` whole (`_gitlab_session=…`): the name stays.
        const named = group === 0 ? NAME_BEFORE_VALUE.exec(secret) : null;
        const from = named && secret.length - named[0].length >= 8 ? start + named[0].length : start;
        spans.push({ start: offset + from, end: offset + end, kind: rule.id });
      }
    }
  }
  return spans;
}
