// What both benchmarks share: their flags and the generated input they read.
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `--name value` from the command line, or the fallback. */
export function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

/** A generated session of about `mb` MB in .bench/ (made once, by scripts/gen-session.mjs). */
export function benchInput(format, mb) {
  const dir = join(root, '.bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${format}-${mb}mb.jsonl`);
  if (!existsSync(file)) {
    execFileSync('node', [join(root, 'scripts/gen-session.mjs'), '--format', format, '--mb', String(mb), '--seed', '1', '--out', file], { stdio: 'inherit' });
  }
  return file;
}

/** The real native logs a `claude-code` or `codex` bench input repeats (fixtures/native/). */
const NATIVE_SOURCES = {
  'claude-code': 'fixtures/native/claude-code-2.1.83_via-claude-agent-acp.jsonl',
  codex: 'fixtures/native/codex-0.137.0_rollout.jsonl',
};

/**
 * A native log of about `mb` MB: a real log's turns repeated, each copy with new ids (entry
 * uuids, message ids, tool-call ids), so every call and entry is its own (a repeated uuid would
 * be read once, CONTRACTS §10). One session: Codex's `session_meta` is written once.
 */
export async function nativeBenchInput(format, mb) {
  const dir = join(root, '.bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${format}-${mb}mb.jsonl`);
  if (existsSync(file)) return file;
  const lines = readFileSync(join(root, NATIVE_SOURCES[format]), 'utf8').split('\n').filter((line) => line.trim() !== '');
  const [first, ...rest] = lines;
  const body = format === 'codex' ? rest : lines;
  const out = createWriteStream(`${file}.part`);
  const write = (text) => (out.write(text) ? undefined : new Promise((resolve) => out.once('drain', resolve)));
  let bytes = 0;
  if (format === 'codex') {
    await write(`${first}\n`);
    bytes += first.length + 1;
  }
  for (let copy = 0; bytes < mb * 1e6; copy++) {
    const tag = copy.toString(16).padStart(8, '0');
    const text = body
      .join('\n')
      // uuids keep their shape: the copy's number is their last 8 digits
      .replace(/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4})[0-9a-f]{8}/g, `$1${tag}`)
      .replace(/(toolu|msg|call)_fake_/g, `$1_${tag}_`) + '\n';
    // the session's own id stays: it is one long session
    const fixed = format === 'claude-code' ? text.replace(/"sessionId":"[^"]+"/g, '"sessionId":"4b56d36c-807f-4005-b88e-b42e393376e0"') : text;
    await write(fixed);
    bytes += Buffer.byteLength(fixed);
  }
  await new Promise((resolve) => out.end(resolve));
  renameSync(`${file}.part`, file);
  return file;
}

/**
 * The ACP bench input with every tool output text repeated `times` times: lines of 8–32 KB, where
 * a light read's skim runs (it skims lines of 4 KB and more; in the plain input 2% of the bytes
 * are in such lines). Cut at about `mb` MB, on a line end.
 */
export async function longOutputBenchInput(mb, times = 8) {
  const dir = join(root, '.bench');
  const file = join(dir, `acp-long-output-${mb}mb.jsonl`);
  if (existsSync(file)) return file;
  const source = readFileSync(benchInput('acp', mb), 'utf8').split('\n');
  const out = createWriteStream(`${file}.part`);
  const write = (text) => (out.write(text) ? undefined : new Promise((resolve) => out.once('drain', resolve)));
  const toolText = /(\{"type":"content","content":\{"type":"text","text":")((?:[^"\\]|\\.)*)"/g;
  let bytes = 0;
  for (const line of source) {
    if (line === '' || bytes >= mb * 1e6) continue;
    const grown = line.replace(toolText, (_, head, text) => `${head}${text.repeat(times)}"`);
    await write(`${grown}\n`);
    bytes += Buffer.byteLength(grown) + 1;
  }
  await new Promise((resolve) => out.end(resolve));
  renameSync(`${file}.part`, file);
  return file;
}

/** The real Claude Code logs a Claude Code fleet repeats (fixtures/native/), in turn. */
const CLAUDE_CODE_SAMPLES = ['fixtures/native/claude-code-2.1.83_via-claude-agent-acp.jsonl', 'fixtures/native/claude-code-2.1.44_via-claude-code-acp.jsonl'];

/**
 * `count` Claude Code logs of about `mb` MB each, laid out as Claude Code keeps them
 * (`DIR/projects/<project>/<session>.jsonl`, so `CLAUDE_CONFIG_DIR=DIR` points a peer at them):
 * the real samples' turns repeated, every file and every copy with its own ids (entry uuids,
 * message ids, request ids, tool-call ids) and every file its own session id, so no entry,
 * response or call is counted twice, by Loupe (CONTRACTS §10) or a peer that counts a response
 * once across files. Returns the files.
 */
export async function claudeCodeFleet(dir, count, mb) {
  // Each sample once, as parts between the places a copy's tag and the session id go.
  const templates = CLAUDE_CODE_SAMPLES.map((sample) =>
    readFileSync(join(root, sample), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .join('\n')
      .concat('\n')
      .replace(/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4})[0-9a-f]{8}/g, '$1\u0000')
      .replace(/(toolu|msg|call)_fake_/g, '$1_\u0000_')
      .replace(/"sessionId":"[^"]+"/g, '"sessionId":"\u0001"')
      .split('\u0000'),
  );
  const files = [];
  for (let index = 0; index < count; index++) {
    const parts = templates[index % templates.length];
    const sessionId = `4b56d36c-807f-4005-b88e-${index.toString(16).padStart(12, '0')}`;
    const copies = [];
    let bytes = 0;
    for (let copy = 0; bytes < mb * 1e6; copy++) {
      const text = parts.join(((index << 8) + copy).toString(16).padStart(8, '0'));
      copies.push(text);
      bytes += text.length;
    }
    const project = join(dir, 'projects', `-home-dev-project-${index % 20}`);
    mkdirSync(project, { recursive: true });
    const file = join(project, `${sessionId}.jsonl`);
    await writeFile(file, copies.join('').split('\u0001').join(sessionId));
    files.push(file);
  }
  return files;
}

/** Every `.jsonl` file under `dir`, sorted. */
export function jsonlFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonlFiles(path));
    else if (entry.name.endsWith('.jsonl')) out.push(path);
  }
  return out.sort();
}

/**
 * `given` (a folder of Claude Code logs), else 200 copies of the real samples made in a temp folder
 * that is removed when the process exits.
 */
export async function claudeLogsDir(given) {
  if (given !== '') return given;
  const made = mkdtempSync(join(tmpdir(), 'loupe-bench-claude-'));
  process.on('exit', () => rmSync(made, { recursive: true, force: true }));
  await claudeCodeFleet(made, 200, 0.63);
  return made;
}
