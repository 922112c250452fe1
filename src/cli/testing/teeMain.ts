// `loupe tee` alone, as its own Node entry: what the tests and `npm run bench:tee` run as a real
// child process, built without the rest of the CLI.
import { isMainThread } from 'node:worker_threads';
import { main } from '../tee';

// tee's recorder thread loads this same file: only the main thread runs the command.
if (isMainThread) process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
