// The `loupe` command's entry: runs the command its arguments name (src/cli/dispatch.ts).
import { isMainThread } from 'node:worker_threads';
import { run } from './dispatch';

// A worker thread started by a subcommand (tee's recorder) must not run the command again.
if (isMainThread) process.exitCode = await run(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
