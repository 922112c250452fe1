// `loupe tee` alone, as its own Node entry: what the tests and `npm run bench:tee` run as a real
// child process, built without the rest of the CLI.
import { main } from '../tee';

process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
