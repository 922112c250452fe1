#!/usr/bin/env node
// `npm run test:install`: Loupe as a user installs it. `npm pack`, then `npm install -g` of that
// tarball into a scratch prefix (npm_config_prefix in a temporary folder), then each command of the
// installed package run from a folder outside the repository: `loupe` and `agent-loupe`, --version,
// summarize, export (jsonl, md, html), tee around a tiny agent, index (in worker threads), and open (--no-browser; the page,
// one of its scripts and the session fetched over HTTP). What it proves is what package.json
// "files" and "bin" ship: nothing here can reach the repository's dist or node_modules.
//
// Needs the built package first (`npm run build` and `npm run build:lib`). The install takes the
// package's dependencies from npm's cache, else from the registry, so it needs the registry once.
// Removes everything it wrote, pass or fail.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const SAMPLE = join(repo, 'fixtures/acp/loupe-tee_text-frames.jsonl');

for (const built of ['dist/app/index.html', 'dist/cli/loupe.js', 'dist/export/standalone.js', 'dist/lib/loupe.js']) {
  if (!existsSync(join(repo, built))) {
    process.stderr.write(`install-test: ${built} is missing: run \`npm run build\` and \`npm run build:lib\` first\n`);
    process.exit(1);
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'loupe-install-'));
// Stopped from outside (a time limit, Ctrl-C), the scratch folder goes too: `finally` below does not run then.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    rmSync(scratch, { recursive: true, force: true });
    process.exit(130);
  });
}
const prefix = join(scratch, 'prefix');
const work = join(scratch, 'work');
// HOME and XDG_STATE_HOME in the scratch folder: tee's default capture folder is not the user's.
const home = join(scratch, 'home');
for (const dir of [prefix, work, home]) mkdirSync(dir);
const env = {
  ...process.env,
  npm_config_prefix: prefix,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  HOME: home,
  XDG_STATE_HOME: join(home, 'state'),
  // Only the scratch prefix's bin and node's own folder: a `loupe` elsewhere on PATH cannot answer.
  PATH: [join(prefix, 'bin'), join(process.execPath, '..'), '/usr/bin', '/bin'].join(':'),
};

let failures = 0;
const seconds = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

function check(what, ok, detail = '') {
  if (ok) console.log(`  ok  ${what}`);
  else {
    failures++;
    console.log(`  FAIL ${what}${detail ? `\n       ${detail.replace(/\n/g, '\n       ')}` : ''}`);
  }
}

function run(command, args, { input, cwd = work } = {}) {
  const result = spawnSync(command, args, { cwd, env, input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.error) throw result.error;
  return { code: result.status, out: result.stdout, err: result.stderr };
}

try {
  let t0 = performance.now();
  // --ignore-scripts: the build checked above is what is packed (prepack would build it all again).
  const packed = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: repo });
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.err}`);
  const [{ filename, entryCount, size }] = JSON.parse(packed.out);
  console.log(`packed ${filename}: ${entryCount} files, ${(size / 1024).toFixed(0)} kB, in ${seconds(t0)}`);

  t0 = performance.now();
  const installed = run('npm', ['install', '--global', '--prefer-offline', join(scratch, filename)]);
  if (installed.code !== 0) throw new Error(`npm install -g failed:\n${installed.err}`);
  console.log(`npm install -g into ${prefix} in ${seconds(t0)}`);
  // What a CLI user gets: the CLI, viewer and export are bundled; only the embed library's own
  // dependencies are installed beside them, and no React UI library (React itself is an optional peer).
  const installedModules = join(prefix, 'lib', 'node_modules', pkg.name, 'node_modules');
  const packages = run('npm', ['ls', '--global', '--all', '--parseable']).out.trim().split('\n').length - 2;
  console.log(`installed ${packages} packages beside it, ${(duBytes(join(prefix, 'lib', 'node_modules', pkg.name)) / 1e6).toFixed(1)} MB in all`);
  const uiLibraries = ['react', 'react-dom', '@emotion', '@babel', 'react-markdown', 'react-diff-viewer-continued'].filter((name) => existsSync(join(installedModules, name)));
  check('a global install pulls no React or React UI library', uiLibraries.length === 0, uiLibraries.join(', '));

  const session = join(work, 'my-run.jsonl');
  copyFileSync(SAMPLE, session);
  const loupe = join(prefix, 'bin', 'loupe');

  for (const bin of ['loupe', pkg.name]) {
    const help = run(join(prefix, 'bin', bin), ['--help']);
    check(`${bin} --help`, help.code === 0 && help.out.includes('loupe summarize FILE'), help.err);
  }

  for (const flag of ['--version', '-V']) {
    const version = run(loupe, [flag]);
    check(`loupe ${flag} prints ${pkg.version}`, version.code === 0 && version.out === `loupe ${pkg.version}\n`, version.err || version.out);
  }

  const summary = run(loupe, ['summarize', session, '--json', '--strict']);
  let calls = [];
  try {
    calls = JSON.parse(summary.out).calls;
  } catch {
    // Reported below.
  }
  check('loupe summarize FILE --json --strict', summary.code === 0 && calls.length === 1 && calls[0].label === 'Run Command', summary.err || summary.out.slice(0, 300));
  const viaNpx = run(join(prefix, 'bin', pkg.name), ['summarize', session]);
  check(`${pkg.name} summarize FILE`, viaNpx.code === 0 && /calls +1/.test(viaNpx.out), viaNpx.err);

  const jsonl = run(loupe, ['export', session, '--format', 'jsonl']);
  check('loupe export --format jsonl gives the records back', jsonl.code === 0 && jsonl.out === readFileSync(session, 'utf8'), jsonl.err);
  const md = run(loupe, ['export', session, '--format', 'md']);
  check('loupe export --format md is headed by the file name', md.code === 0 && md.out.startsWith('# my-run'), md.err || md.out.slice(0, 200));
  const html = run(loupe, ['export', session, '--format', 'html', '--redact', '--out', join(work, 'my-run.html')]);
  const page = html.code === 0 ? readFileSync(join(work, 'my-run.html'), 'utf8') : '';
  check(
    'loupe export --format html --redact carries the viewer (from the package) and says it is redacted',
    html.code === 0 && page.includes('<title>my-run.jsonl (redacted) — Loupe</title>') && /<script type="module">.{100000,}<\/script>/s.test(page),
    html.err,
  );

  // tee around an agent that echoes each line back: the traffic passes, and both directions are recorded.
  const capture = join(work, 'capture.jsonl');
  const message = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}\n';
  const tee = run(loupe, ['tee', '--out', capture, '--', process.execPath, '-e', 'process.stdin.pipe(process.stdout)'], { input: message });
  const recorded = existsSync(capture) ? readFileSync(capture, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : [];
  check(
    'loupe tee -- AGENT passes the traffic through and records both directions',
    tee.code === 0 && tee.out === message && recorded.map((line) => line.dir).sort().join(' ') === 'agent->client client->agent',
    tee.err,
  );

  // index reads in worker threads that run the installed bundle's own module: the package must ship what they load.
  const indexOut = join(scratch, 'index');
  const indexed = run(loupe, ['index', work, '--out', indexOut, '--json', '--jobs', '2']);
  let counts = {};
  try {
    counts = JSON.parse(indexed.out);
  } catch {
    // Reported below.
  }
  check(
    'loupe index DIR --json --jobs 2 reads in 2 threads and writes calls.parquet and sessions.parquet (the sample and the capture)',
    indexed.code === 0 && counts.threads === 2 && counts.sessions === 2 && counts.parsed === 2 && counts.calls === 1 && existsSync(join(indexOut, 'calls.parquet')) && existsSync(join(indexOut, 'sessions.parquet')),
    indexed.err || indexed.out.slice(0, 300),
  );

  // Read in threads (each reading files into the buffers it uses again) and in this thread, every
  // fixture gives the same rows: the threads' path is the installed bundle's alone (tests run the
  // sources, where no thread can load them).
  const threaded = join(scratch, 'index-threads');
  const inThread = join(scratch, 'index-one');
  const fixtures = join(repo, 'fixtures');
  const byThreads = run(loupe, ['index', fixtures, '--out', threaded, '--json', '--jobs', '2']);
  const byOne = run(loupe, ['index', fixtures, '--out', inThread, '--json', '--jobs', '0']);
  const [threadedRows, oneRows] = [await tableRowsOf(threaded), await tableRowsOf(inThread)];
  check(
    'loupe index over the fixtures in 2 threads writes the rows it writes in one',
    byThreads.code === 0 && byOne.code === 0 && JSON.parse(byThreads.out).threads === 2 && threadedRows.length > 300 && threadedRows.join('\n') === oneRows.join('\n'),
    byThreads.err || byOne.err || `${threadedRows.length} rows against ${oneRows.length}`,
  );

  check('loupe open serves the viewer and the session', await checkOpen(loupe, session));
} catch (error) {
  failures++;
  console.log(`  FAIL ${error instanceof Error ? error.message : error}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (failures > 0) {
  console.log(`install-test: ${failures} failed`);
  process.exit(1);
}
console.log('install-test: the installed package works');

/** The bytes of the files under `dir`. */
function duBytes(dir) {
  return readdirSync(dir, { recursive: true }).reduce((sum, path) => {
    const info = lstatSync(join(dir, path));
    return sum + (info.isFile() ? info.size : 0);
  }, 0);
}

/** `loupe open FILE --no-browser`: the printed page, a script it loads and the session it names, over HTTP. */
async function checkOpen(loupe, session) {
  const child = spawn(loupe, ['open', session, '--no-browser', '--port', '0'], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await Promise.race([
      new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
      exited.then((code) => {
        throw new Error(`loupe open exited with ${code}: ${err}`);
      }),
    ]);
    const index = await fetch(url);
    const indexHtml = await index.text();
    const script = /<script[^>]+src="\.\/([^"]+)"/.exec(indexHtml)?.[1];
    const asset = script ? await fetch(new URL(script, url)) : null;
    const src = new URL(url).searchParams.get('src');
    const served = src ? await fetch(new URL(src, url)) : null;
    const ok =
      index.status === 200 &&
      asset?.status === 200 &&
      src === 'session/my-run.jsonl' &&
      served?.status === 200 &&
      (await served.text()) === readFileSync(session, 'utf8');
    if (!ok) console.log(`       page ${index.status}, script ${script} ${asset?.status}, src ${src} ${served?.status}; ${err}`);
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) console.log(`       loupe open exited with ${code} on SIGTERM: ${err}`);
    return ok && code === 0;
  } catch (error) {
    console.log(`       ${error instanceof Error ? error.message : error}`);
    return false;
  } finally {
    child.kill('SIGKILL');
  }
}

/** Both tables' rows, each as JSON, sorted: what an index holds, whatever order its files were read in. */
async function tableRowsOf(dir) {
  const { asyncBufferFromFile, parquetReadObjects } = await import('hyparquet');
  const rows = [];
  for (const table of ['calls.parquet', 'sessions.parquet']) {
    if (!existsSync(join(dir, table))) return [];
    for (const row of await parquetReadObjects({ file: await asyncBufferFromFile(join(dir, table)) })) {
      rows.push(`${table} ${JSON.stringify(row, (key, value) => (typeof value === 'bigint' ? Number(value) : value))}`);
    }
  }
  return rows.sort();
}
