#!/usr/bin/env node
// npm run redact:corpus: how much of the leak corpus (src/share/testing/leakCorpus.ts) survives
// redaction in a JSONL export, and how many ordinary lines it changes. Every secret (a value for each
// gitleaks rule, and Loupe's context kinds) is placed in every place a session keeps text, the whole
// is redacted as `loupe export --redact` does (createLineRedactor, in batches), and each placement
// is read back (JSON in strings read too, chunks joined): a placement whose value is still there is
// a survivor. Ordinary lines are placed one each, in turn, and counted when redaction changed them.
// "Context lost" counts secrets whose redaction (of the bare text) took more than the value.
//   node scripts/redact-corpus.mjs [--list] [--lines 1700]
import { createServer } from 'vite';
import { arg } from './bench-common.mjs';

const LIST = process.argv.includes('--list');
const LINES = Number(arg('lines', '1700'));
const BATCH = 500;

const server = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'warn', configFile: false, optimizeDeps: { noDiscovery: true, entries: [] } });
try {
  const corpus = await server.ssrLoadModule('/src/share/testing/leakCorpus.ts');
  const { createLineRedactor } = await server.ssrLoadModule('/src/share/redact/redactLine.ts');
  const { redactText } = await server.ssrLoadModule('/src/share/redact/detect.ts');

  const redactAll = async (lines) => {
    const redactor = createLineRedactor();
    const out = [];
    for (let at = 0; at < lines.length; at += BATCH) for (const result of await redactor.push(lines.slice(at, at + BATCH))) out.push(result.text);
    for (const result of await redactor.end()) out.push(result.text);
    return out;
  };

  const gitleaks = corpus.gitleaksSamples();
  const context = corpus.contextSamples();
  const secrets = [...gitleaks, ...context];
  const placed = [];
  const lines = [];
  let n = 0;
  for (const secret of secrets) {
    for (const placement of corpus.PLACEMENTS) {
      const own = placement.lines(secret.text, n++);
      placed.push({ secret, placement, from: lines.length, to: lines.length + own.length });
      lines.push(...own);
      // Apart from the next placement: a stream run ends here.
      lines.push(JSON.stringify({ jsonrpc: '2.0', id: n, result: {} }));
    }
  }
  const started = performance.now();
  const redacted = await redactAll(lines);
  const elapsed = performance.now() - started;
  const survivors = placed.filter(({ secret, placement, from, to }) => corpus.readBack(redacted.slice(from, to), placement.joined).includes(secret.value));
  const survivingKinds = new Set(survivors.map(({ secret }) => secret.kind));
  const count = (list, of) => list.filter(({ secret }) => of.includes(secret)).length;

  const lostContext = [];
  for (const secret of secrets) {
    const { text } = await redactText(secret.text);
    const whole = secret.whole ?? secret.value;
    const at = secret.text.indexOf(whole);
    const before = secret.text.slice(0, at);
    const after = secret.text.slice(at + whole.length);
    if (!text.startsWith(before) || !text.endsWith(after)) lostContext.push({ secret, text });
  }

  const ordinary = corpus.ordinaryLines(LINES);
  const ordinaryLines = [];
  const ordinaryPlaced = ordinary.map((line, index) => {
    const placement = corpus.PLACEMENTS[index % corpus.PLACEMENTS.length];
    const own = placement.lines(line, index);
    const from = ordinaryLines.length;
    ordinaryLines.push(...own, JSON.stringify({ jsonrpc: '2.0', id: index, result: {} }));
    return { line, from, to: from + own.length };
  });
  const ordinaryRedacted = await redactAll(ordinaryLines);
  const changed = ordinaryPlaced.filter(({ from, to }) => ordinaryRedacted.slice(from, to).join('\n') !== ordinaryLines.slice(from, to).join('\n'));
  const changedLines = ordinaryRedacted.filter((line, index) => line !== ordinaryLines[index]).length;

  console.log(`leak corpus: ${gitleaks.length} gitleaks rules with a sample (of the rule set's rules) + ${context.length} context kinds, ${corpus.PLACEMENTS.length} places each`);
  console.log(`  placements surviving redaction: ${survivors.length} of ${placed.length} (gitleaks kinds ${count(survivors, gitleaks)} of ${gitleaks.length * corpus.PLACEMENTS.length}, context kinds ${count(survivors, context)} of ${context.length * corpus.PLACEMENTS.length})`);
  console.log(`  kinds with a survivor: ${survivingKinds.size} of ${secrets.length}`);
  for (const placement of corpus.PLACEMENTS) console.log(`    ${placement.name.padEnd(20)} ${survivors.filter((s) => s.placement === placement).length} of ${secrets.length}`);
  console.log(`  secrets whose redaction took more than the value (bare text): ${lostContext.length} of ${secrets.length}`);
  console.log(`ordinary lines changed: ${changed.length} of ${ordinary.length} (JSONL lines changed: ${changedLines})`);
  console.log(`  redaction of the leak corpus: ${lines.length} lines in ${elapsed.toFixed(0)} ms`);
  if (LIST) {
    console.log('\nsurvivors:');
    for (const kind of survivingKinds) {
      const secret = secrets.find((s) => s.kind === kind);
      const where = survivors.filter((s) => s.secret.kind === kind).map((s) => s.placement.name);
      console.log(`  ${kind} [${where.length === corpus.PLACEMENTS.length ? 'everywhere' : where.join(', ')}]: ${JSON.stringify(secret.text.slice(0, 160))}`);
    }
    console.log('\ncontext lost:');
    for (const { secret, text } of lostContext) console.log(`  ${secret.kind}: ${JSON.stringify(secret.text.slice(0, 140))}\n    → ${JSON.stringify(text.slice(0, 140))}`);
    console.log('\nordinary lines changed:');
    for (const { line, from, to } of changed) {
      const after = corpus.readBack(ordinaryRedacted.slice(from, to)).split('\n');
      const before = corpus.readBack(ordinaryLines.slice(from, to)).split('\n');
      const index = after.findIndex((text, i) => text !== before[i]);
      console.log(`  ${JSON.stringify(line.slice(0, 150))}\n    → ${JSON.stringify(after[index]?.slice(0, 150))}`);
    }
  }
} finally {
  await server.close();
}
