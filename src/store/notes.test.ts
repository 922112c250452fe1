import { describe, expect, it } from 'vitest';
import { createNotesStore, fixedNotesStore, type NotesBackend } from './notes';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

function memoryBackend(): NotesBackend & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: (key) => Promise.resolve(structuredClone(data.get(key))), set: (key, value) => Promise.resolve(void data.set(key, structuredClone(value))) };
}

describe('notes on calls', () => {
  it('come back for the same file in a new page, and never for another file', async () => {
    const backend = memoryBackend();
    await createNotesStore(backend).setNote(HASH_A, 's1\u0000call-1', { text: 'flaky here', bookmarked: true });
    const later = createNotesStore(backend);
    expect(await later.load(HASH_A)).toEqual({ 's1\u0000call-1': { text: 'flaky here', bookmarked: true } });
    expect(await later.load(HASH_B)).toEqual({});
  });

  it('drop a note emptied and unbookmarked', async () => {
    const notes = createNotesStore(memoryBackend());
    await notes.setNote(HASH_A, 'k', { text: 'x', bookmarked: false });
    await notes.setNote(HASH_A, 'k', { text: '  ', bookmarked: false });
    expect(notes.notesOf(HASH_A)).toEqual({});
  });

  it('travel as a sidecar that imports into the same file only', async () => {
    const mine = createNotesStore(memoryBackend());
    await mine.setNote(HASH_A, 'k', { text: 'look', bookmarked: false });
    const json = JSON.stringify(mine.sidecar(HASH_A));
    const theirs = createNotesStore(memoryBackend());
    await expect(theirs.importSidecar(HASH_B, json)).rejects.toThrow('another file');
    await expect(theirs.importSidecar(HASH_A, '{"notes":{}}')).rejects.toThrow('not a Loupe notes file');
    expect(await theirs.importSidecar(HASH_A, json)).toBe(1);
    expect(theirs.notesOf(HASH_A)).toEqual({ k: { text: 'look', bookmarked: false } });
  });

  it('still work for the page where they cannot be kept (no IndexedDB), and say why', async () => {
    const broken: NotesBackend = {
      get: () => Promise.reject(new ReferenceError('indexedDB is not defined')),
      set: () => Promise.reject(new ReferenceError('indexedDB is not defined')),
    };
    const notes = createNotesStore(broken);
    await expect(notes.load(HASH_A)).resolves.toEqual({});
    await notes.setNote(HASH_A, 'k', { text: 'kept in memory', bookmarked: false });
    expect(notes.notesOf(HASH_A)).toEqual({ k: { text: 'kept in memory', bookmarked: false } });
    expect(notes.problem()).toContain('indexedDB is not defined');
  });

  it('that an html export carries are shown for its session, cannot be changed, and anything not notes is dropped', async () => {
    const carried = fixedNotesStore({ k: { text: 'look here', bookmarked: true } });
    expect(carried.readOnly).toBe(true);
    expect(await carried.load(HASH_B)).toEqual({ k: { text: 'look here', bookmarked: true } });
    await expect(carried.setNote(HASH_B, 'k', { text: 'changed', bookmarked: false })).rejects.toThrow('read-only');
    await expect(carried.importSidecar(HASH_B, JSON.stringify(carried.sidecar(HASH_B)))).rejects.toThrow('read-only');
    expect(carried.notesOf(HASH_B)).toEqual({ k: { text: 'look here', bookmarked: true } });
    for (const notNotes of [{ k: { text: 1 } }, '<b>not notes</b>']) {
      const dropped = fixedNotesStore(notNotes);
      expect(await dropped.load(HASH_A)).toEqual({});
      expect(dropped.notesOf(HASH_A)).toEqual({});
    }
  });
});
