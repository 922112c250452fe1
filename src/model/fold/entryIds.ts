// The uuids of the entries a read has folded: a Claude Code entry written again (a resumed session
// copies them) is counted but not folded twice. A set of strings held every uuid as a 36-character
// string for the whole read: on a 100 MB log, 10 MB of the index's peak and a tenth of its CPU. A
// uuid in its usual form (8-4-4-4-12 lowercase hex digits) is kept here as its 16 bytes, in one
// array, found through an open-addressing table of their places; any other string in a set of its
// own. A uuid the WebAssembly pass packed itself (`addWords`, cli/claudeCodeScanRead.ts) is the same
// entry as its string: entryIds.test.ts holds `add` to a set of strings, claudeCodeScanRead.test.ts the
// pass's packing to `add`.

/** Words (4 bytes) of a packed uuid. */
const WORDS = 4;
const EMPTY = 0;

export class EntryIds {
  /** The packed uuids, one after another. */
  private packed = new Int32Array(WORDS * 256);
  private count = 0;
  /**
   * The table, two words a slot: a packed uuid's hash and its index + 1 (EMPTY: a free slot), so
   * a probe reads one place, not one in the table and one in an array of hashes.
   */
  private slots = new Int32Array(2 * 512);
  private readonly others = new Set<string>();
  private readonly scratch = new Int32Array(WORDS);

  /** Notes the entry `uuid`; true when it was not noted before. */
  add(uuid: string): boolean {
    if (uuid.length === 36 && packChars(uuid, this.scratch)) return this.addScratch();
    return this.addOther(uuid);
  }

  /**
   * Notes the entry whose uuid, in its usual form, was packed by the WebAssembly pass
   * (ingest/wasm/assembly/indexScan.ts's packUuid, as packChars packs one) into `hash` and four
   * words: the same answer as `add` of its string, with no string and no loop over its digits.
   */
  addWords(hash: number, w0: number, w1: number, w2: number, w3: number): boolean {
    const key = this.scratch;
    key[0] = w0;
    key[1] = w1;
    key[2] = w2;
    key[3] = w3;
    return this.addPacked(hash | 0);
  }

  private addOther(uuid: string): boolean {
    const others = this.others;
    const known = others.size;
    return others.add(uuid).size !== known;
  }

  private addScratch(): boolean {
    const key = this.scratch;
    return this.addPacked(hashWords(key[0]!, key[1]!, key[2]!, key[3]!));
  }

  private addPacked(hash: number): boolean {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = slots[2 * slot + 1]!;
      if (held === EMPTY) {
        this.store(hash, slot);
        return true;
      }
      if (slots[2 * slot] === hash && this.equals(held - 1)) return false;
    }
  }

  private equals(index: number): boolean {
    const packed = this.packed;
    const key = this.scratch;
    const at = index * WORDS;
    return packed[at] === key[0] && packed[at + 1] === key[1] && packed[at + 2] === key[2] && packed[at + 3] === key[3];
  }

  private store(hash: number, slot: number): void {
    if ((this.count + 1) * WORDS > this.packed.length) {
      const packed = new Int32Array(this.packed.length * 2);
      packed.set(this.packed);
      this.packed = packed;
    }
    const index = this.count++;
    const at = index * WORDS;
    const key = this.scratch;
    this.packed[at] = key[0]!;
    this.packed[at + 1] = key[1]!;
    this.packed[at + 2] = key[2]!;
    this.packed[at + 3] = key[3]!;
    this.slots[2 * slot] = hash;
    this.slots[2 * slot + 1] = index + 1;
    // At most half full: probes stay short.
    if (this.count * 4 > this.slots.length) this.grow();
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let at = 0; at < old.length; at += 2) {
      const held = old[at + 1]!;
      if (held === EMPTY) continue;
      const hash = old[at]!;
      let slot = hash & mask;
      while (slots[2 * slot + 1] !== EMPTY) slot = (slot + 1) & mask;
      slots[2 * slot] = hash;
      slots[2 * slot + 1] = held;
    }
    this.slots = slots;
  }
}

/**
 * The hash of a packed uuid's four words; the pass's hashWords (indexScan.ts) is the same
 * arithmetic, so a uuid it packed is found where packChars put it. Never 0 (the pass's "not packed").
 */
export function hashWords(w0: number, w1: number, w2: number, w3: number): number {
  let h = Math.imul(w0, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15) ^ w1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 13) ^ w2, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 16) ^ w3, 0x27d4eb2f);
  return ((h ^ (h >>> 15)) & 0x3fffffff) | 0x40000000;
}

/** A lowercase hex digit's value, or -1. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

/**
 * The 32 hex digits of a uuid in its usual form (dashes at 8, 13, 18 and 23) as four words into
 * `into`: byte k is digits 2k and 2k + 1, word j bytes 4j..4j + 3, the first the lowest. False
 * when `uuid` is not in that form.
 */
function packChars(uuid: string, into: Int32Array): boolean {
  if (uuid.charCodeAt(8) !== 0x2d || uuid.charCodeAt(13) !== 0x2d || uuid.charCodeAt(18) !== 0x2d || uuid.charCodeAt(23) !== 0x2d) return false;
  let bad = 0;
  let word = 0;
  for (let k = 0, at = 0; k < 16; k++, at += 2) {
    if (at === 8 || at === 13 || at === 18 || at === 23) at++;
    const high = hexValue(uuid.charCodeAt(at));
    const low = hexValue(uuid.charCodeAt(at + 1));
    bad |= high | low;
    word |= ((high << 4) | low) << (8 * (k & 3));
    if ((k & 3) === 3) {
      into[k >> 2] = word;
      word = 0;
    }
  }
  return bad >= 0;
}
