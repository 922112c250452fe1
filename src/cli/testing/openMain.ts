// `loupe open` alone, as its own Node entry: what the tests run as a real child process (signals,
// a wedged event loop), with the viewer folder from LOUPE_TEST_APP_DIR.
import { main } from '../open';

process.exitCode = await main(
  process.argv.slice(2),
  { out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`) },
  { ...(process.env.LOUPE_TEST_APP_DIR ? { appDir: process.env.LOUPE_TEST_APP_DIR } : {}), ...(process.env.LOUPE_TEST_CAPTURES ? { capturesDir: process.env.LOUPE_TEST_CAPTURES } : {}) },
);
