// The uuids of the entries a read has folded: a Claude Code entry written again (a resumed session
// copies them) is counted but not folded twice. A set of strings held every uuid as a 36-character
// string for the whole read: on a 100 MB log, 10 MB of the index's peak and a tenth of its CPU. A
// uuid in its usual form (8-4-4-4-12 lowercase hex digits) is kept here as its 16 bytes, in one
// array, found through an open-addressing table of their places; any other string in a set of its
// own. The same uuid given as a string or as its bytes (the WebAssembly pass's, cli/claudeCodeScanRead.ts)
// is the same entry: entryIds.test.ts holds both to a set of strings.

const PACKED = 16;
const EMPTY = 0;

export class EntryIds {
  /** The packed uuids, one after another. */
  private packed = new Uint8Array(PACKED * 256);
  private count = 0;
  /** Slots of the table: a packed uuid's index + 1, or EMPTY. */
  private slots = new Int32Array(512);
  /** Each packed uuid's hash, so the table grows without hashing them again. */
  private hashes = new Int32Array(256);
  private readonly others = new Set<string>();
  private readonly scratch = new Uint8Array(PACKED);

  /** Notes the entry `uuid`; true when it was not noted before. */
  add(uuid: string): boolean {
    if (uuid.length === 36 && packChars(uuid, this.scratch)) return this.addPacked();
    return this.addOther(uuid);
  }

  /**
   * Notes the entry whose uuid is the ASCII string `bytes[start, end)` (no escape: its bytes are its
   * characters); true when it was not noted before. The same answer as `add` of that string.
   */
  addBytes(bytes: Uint8Array, start: number, end: number): boolean {
    if (end - start === 36 && packBytes(bytes, start, this.scratch)) return this.addPacked();
    let text = '';
    for (let at = start; at < end; at++) text += String.fromCharCode(bytes[at]!);
    return this.addOther(text);
  }

  private addOther(uuid: string): boolean {
    const others = this.others;
    const known = others.size;
    return others.add(uuid).size !== known;
  }

  private addPacked(): boolean {
    const key = this.scratch;
    let hash = 0x811c9dc5;
    for (let i = 0; i < PACKED; i++) hash = Math.imul(hash ^ key[i]!, 0x01000193);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot]!;
      if (held === EMPTY) {
        this.store(hash, slot);
        return true;
      }
      if (this.hashes[held - 1] === hash && this.equals(held - 1)) return false;
    }
  }

  private equals(index: number): boolean {
    const packed = this.packed;
    const key = this.scratch;
    const at = index * PACKED;
    for (let i = 0; i < PACKED; i++) if (packed[at + i] !== key[i]) return false;
    return true;
  }

  private store(hash: number, slot: number): void {
    if (this.count === this.hashes.length) {
      const packed = new Uint8Array(this.packed.length * 2);
      packed.set(this.packed);
      this.packed = packed;
      const hashes = new Int32Array(this.hashes.length * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    const index = this.count++;
    this.packed.set(this.scratch, index * PACKED);
    this.hashes[index] = hash;
    this.slots[slot] = index + 1;
    // At most half full: probes stay short.
    if (this.count * 2 > this.slots.length) this.grow();
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let index = 0; index < this.count; index++) {
      let slot = this.hashes[index]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.slots = slots;
  }
}

/** A lowercase hex digit's value, or -1. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

function isDash(at: number): boolean {
  return at === 8 || at === 13 || at === 18 || at === 23;
}

/** The 36 characters of `uuid` as 16 bytes into `into`; false when they are not a uuid in its usual form. */
function packChars(uuid: string, into: Uint8Array): boolean {
  let out = 0;
  for (let at = 0; at < 36; at++) {
    if (isDash(at)) {
      if (uuid.charCodeAt(at) !== 0x2d) return false;
      continue;
    }
    const high = hexValue(uuid.charCodeAt(at));
    const low = hexValue(uuid.charCodeAt(++at));
    if (high < 0 || low < 0) return false;
    into[out++] = (high << 4) | low;
  }
  return true;
}

/** As packChars, from the 36 bytes at `start`. */
function packBytes(bytes: Uint8Array, start: number, into: Uint8Array): boolean {
  let out = 0;
  for (let at = 0; at < 36; at++) {
    if (isDash(at)) {
      if (bytes[start + at] !== 0x2d) return false;
      continue;
    }
    const high = hexValue(bytes[start + at]!);
    const low = hexValue(bytes[start + ++at]!);
    if (high < 0 || low < 0) return false;
    into[out++] = (high << 4) | low;
  }
  return true;
}
