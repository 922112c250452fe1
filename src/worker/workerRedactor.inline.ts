// In the library and html-export builds (see vite.lib.config.ts) the worker is inlined and runs
// from a blob: URL, where a chunk it imported on demand could not be found; so it carries no
// ruleset, and a redacted load is read in-thread (WORKER_LOADS_CHUNKS in spawn.inline.ts).
import type { Redactor } from './redactStream';

export const workerRedactor: Redactor | undefined = undefined;
