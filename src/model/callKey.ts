// How calls are keyed in `Session.calls`, in one place: the builder makes the keys, and an export
// that renumbers calls (notes re-matched under a filter) reads them back.

// The ledger's scopes are symbols: any string can be a session id (`\u0000ledger` too).
export const LEDGER_SCOPE: unique symbol = Symbol('ledger');
export const LEGACY_LEDGER_SCOPE: unique symbol = Symbol('ledger line');
/** Where a call id is unique: an ACP session (its id), the ledger, or the legacy ledger's lines. */
export type CallScope = string | typeof LEDGER_SCOPE | typeof LEGACY_LEDGER_SCOPE;

/**
 * A call's key in `Session.calls`: one per scope, id (and generation, for an id used again), with
 * no separator a session or call id could contain (a NUL in one made two calls share a key).
 */
export function callKey(scope: CallScope, id: string, generation?: number): string {
  const tag = scope === LEDGER_SCOPE ? 0 : scope === LEGACY_LEDGER_SCOPE ? 1 : scope;
  // JSON.stringify's text written out where neither string has a character it escapes: every call
  // is keyed once, and stringifying an array was 2% of indexing a Claude Code log.
  if (typeof tag === 'string' && generation === undefined && !NEEDS_ESCAPE.test(tag) && !NEEDS_ESCAPE.test(id)) {
    const key = `["${tag}","${id}"]`;
    // Read once, so V8 makes it one flat string: a template's result is a chain of its five parts,
    // and every call keeps its key (a 100 MB Claude Code log's 27,470 keys: 1.3 MB less, flat).
    key.charCodeAt(0);
    return key;
  }
  return JSON.stringify(generation === undefined ? [tag, id] : [tag, id, generation]);
}

/** What JSON.stringify writes as an escape: a quote, a backslash, a control character, a surrogate (paired or not, to stay simple). */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The scope and id of a call key, without the generation a reused id adds: the same for every call with that id. */
export function callIdentity(key: string): string {
  try {
    const parts: unknown = JSON.parse(key);
    return Array.isArray(parts) ? JSON.stringify(parts.slice(0, 2)) : key;
  } catch {
    return key;
  }
}
