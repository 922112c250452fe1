// Values the fold keeps one copy of, for memory and speed: session ids (every record carries its
// own copy), the sessions noted so far, and the lists of options permission requests offer.
import type { PermissionRequest } from '../types';

/** How many different lists of permission options are shared; an input with more keeps the rest as they come. */
const MAX_OPTION_LISTS = 8;

/**
 * One string per session id (or ledger run), and the session ids in order of first sight. Every
 * record carries its own copy of its id, and items and calls keep it: the copies would add up to
 * a few percent of the input.
 */
export class SessionIds {
  private readonly canonicalIds = new Map<string, string>();
  private lastId: string | null = null;
  private readonly noted = new Set<string>();
  /** The session id noted last: most records repeat it, so most are checked with one comparison. */
  private lastNoted: string | null = null;

  /** `sessionIds`: the session's list, appended to as sessions are noted. */
  constructor(private readonly sessionIds: string[]) {}

  canonical(id: string): string;
  canonical(id: string | null): string | null;
  canonical(id: string | null): string | null {
    if (id === null) return null;
    if (id === this.lastId) return this.lastId;
    let canonical = this.canonicalIds.get(id);
    if (canonical === undefined) {
      canonical = id;
      this.canonicalIds.set(id, id);
    }
    this.lastId = canonical;
    return canonical;
  }

  /** A record of `sessionId` was read: the session joins the list when it is new. */
  note(sessionId: string | null): void {
    if (sessionId === null || sessionId === this.lastNoted) return;
    this.lastNoted = sessionId;
    if (this.noted.has(sessionId)) return;
    this.noted.add(sessionId);
    this.sessionIds.push(sessionId);
  }
}

/**
 * The options of permission requests, as one list shared by every request that offers the same: an
 * agent offers the same few options each time, and each copy cost 500 bytes a request.
 */
export class SharedOptionLists {
  private readonly lists: PermissionRequest['options'][] = [];

  shared(options: PermissionRequest['options']): PermissionRequest['options'] {
    for (const known of this.lists) if (sameOptions(known, options)) return known;
    if (this.lists.length < MAX_OPTION_LISTS) this.lists.push(options);
    return options;
  }
}

function sameOptions(a: PermissionRequest['options'], b: PermissionRequest['options']): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) {
    const x = a[index]!;
    const y = b[index]!;
    if (x.optionId !== y.optionId || x.name !== y.name || x.kind !== y.kind) return false;
  }
  return true;
}
