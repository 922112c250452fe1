// How `loupe index` shares files between its workers and its own thread (FileQueue): every file is
// read once, in order, and the command's own thread never takes one it may not read (a large file,
// or one with sub-agents, whose reading could take its memory: a worker's death fails that file
// alone, the command's would fail the index).
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { FileQueue } from './indexPool';

test('each file is taken once, a worker in order, this thread only those it may read', () => {
  fc.assert(
    fc.property(fc.array(fc.boolean(), { maxLength: 60 }), fc.array(fc.boolean(), { maxLength: 200 }), (small, turns) => {
      const paths = small.map((_, index) => `f${index}`);
      const queue = new FileQueue(paths, (path) => small[Number(path.slice(1))]!);
      const takenBy: ('worker' | 'here')[] = [];
      const workerTook: number[] = [];
      let hereDone = false;
      // Turns at random (true: this thread asks), then the workers take what is left.
      for (const here of [...turns, ...paths.map(() => false)]) {
        if (here && hereDone) continue;
        const index = queue.take(here);
        if (index < 0) {
          if (here) hereDone = true;
          continue;
        }
        expect(takenBy[index], `f${index} taken twice`).toBeUndefined();
        takenBy[index] = here ? 'here' : 'worker';
        if (here) expect(small[index], `this thread took f${index}, which it may not read`).toBe(true);
        else workerTook.push(index);
      }
      expect(takenBy.filter(Boolean)).toHaveLength(paths.length);
      expect(workerTook).toEqual([...workerTook].sort((a, b) => a - b));
      expect(queue.take(false)).toBe(-1);
      expect(queue.take(true)).toBe(-1);
    }),
  );
});

test('this thread goes past files it may not read to the next it may, and they wait for a worker', () => {
  const paths = ['big-1', 'small-1', 'big-2', 'small-2'];
  const queue = new FileQueue(paths, (path) => path.startsWith('small'));
  expect(queue.take(true)).toBe(1);
  expect(queue.take(true)).toBe(3);
  expect(queue.take(true)).toBe(-1);
  expect(queue.take(false)).toBe(0);
  expect(queue.take(false)).toBe(2);
  expect(queue.take(false)).toBe(-1);
});
