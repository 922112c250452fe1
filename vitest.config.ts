import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    setupFiles: ['src/testSetup.ts'],
    // Vitest leaves a core free by default: on the 2-core CI machine that is one file at a time
    // (src/model alone: 60 s against 43 with two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
