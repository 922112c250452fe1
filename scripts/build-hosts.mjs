#!/usr/bin/env node
// `npm run build:hosts`: the embedding example (examples/dashboard) built as two host apps would
// build it, one on React 18.3 and one on React 19 (examples/dashboard/hosts.json), each with
// Loupe installed by `npm install` from the tarball `npm pack` makes: what a host really gets,
// package.json "files" and "exports" included, not the repository's sources or dist folder.
//
// Needs the package's built files first: `npm run build:lib` and `npm run build:cli`.
// Writes dist/hosts/agent-loupe-<version>-<sha>.tgz and dist/hosts/<host>/{node_modules,dist}.
// The hosts use the repository's vite and @vitejs/plugin-react (found up the folder tree), so
// their install is only the package, its dependencies and their React. Being inside the repository,
// a host could quietly resolve a module from the repository's node_modules (a dependency missing
// from the package, a second React): its build fails if any module comes from outside its folder.
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'vite';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('..', import.meta.url));
const example = join(repo, 'examples/dashboard');
const out = join(repo, 'dist/hosts');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
/** @type {Record<string, { port: number, react: string }>} */
const hosts = JSON.parse(readFileSync(join(example, 'hosts.json'), 'utf8'));

function fail(message) {
  process.stderr.write(`build-hosts: ${message}\n`);
  process.exit(1);
}

// The React 19 host is the React the project itself is developed and tested on.
if (hosts.react19?.react !== pkg.devDependencies.react) {
  fail(`examples/dashboard/hosts.json react19 is ${hosts.react19?.react}, package.json devDependencies has react ${pkg.devDependencies.react}`);
}
for (const built of ['dist/lib/loupe.js', 'dist/lib/loupe.css', 'dist/lib/types/embed/index.d.ts', 'dist/cli/loupe.js']) {
  if (!existsSync(join(repo, built))) fail(`${built} is missing: run \`npm run build:lib\` and \`npm run build:cli\` first`);
}

const seconds = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

async function npm(args, cwd) {
  try {
    return (await run('npm', args, { cwd, maxBuffer: 64 << 20 })).stdout;
  } catch (error) {
    fail(`npm ${args.join(' ')} in ${cwd} failed:\n${error.stdout ?? ''}${error.stderr ?? error}`);
  }
}

// The tarball's name carries its checksum: npm does not reinstall a changed tarball at the same
// path, but it does install one at a new path (and an unchanged build keeps its name).
mkdirSync(out, { recursive: true });
for (const old of readdirSync(out)) if (old.endsWith('.tgz')) rmSync(join(out, old));
let t0 = performance.now();
const [packed] = JSON.parse(await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', out], repo));
const tarball = packed.filename.replace(/\.tgz$/, `-${packed.shasum.slice(0, 10)}.tgz`);
renameSync(join(out, packed.filename), join(out, tarball));
console.log(`packed ${tarball}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} kB, in ${seconds(t0)}`);

/** @returns {import('vite').Plugin} */
function onlyModulesFrom(dir) {
  return {
    name: 'loupe-host-modules-only',
    generateBundle() {
      // '\0' marks Vite's own virtual modules (preload helper, polyfill); `__vite-browser-external`
      // is its stand-in for a Node built-in a dependency names but does not need in a browser
      // (secretlint's preset reads files only in Node).
      const outside = [...this.getModuleIds()].filter((id) => !id.startsWith('\0') && !id.startsWith('__vite-browser-external') && !id.startsWith(dir + sep));
      if (outside.length > 0) this.error(`${outside.length} modules from outside ${dir}, e.g.:\n  ${outside.slice(0, 5).join('\n  ')}`);
    },
  };
}

const notHostFiles = new Set(['hosts.json', 'publicApi.typetest.tsx']);

async function buildHost(name, { react }) {
  const dir = join(out, name);
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(example)) if (!notHostFiles.has(file)) copyFileSync(join(example, file), join(dir, file));
  cpSync(join(repo, 'public/samples'), join(dir, 'public/samples'), { recursive: true });
  const hostPkg = {
    name: `loupe-dashboard-${name}`,
    private: true,
    type: 'module',
    dependencies: { [pkg.name]: `file:../${tarball}`, react, 'react-dom': react },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(hostPkg, null, 2)}\n`);

  const t1 = performance.now();
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
  const installed = JSON.parse(readFileSync(join(dir, 'node_modules/react/package.json'), 'utf8')).version;
  if (installed !== react) fail(`${name}: npm installed react ${installed}, not ${react}`);
  const installTime = seconds(t1);

  const t2 = performance.now();
  try {
    await build({ root: dir, configFile: join(dir, 'vite.config.ts'), logLevel: 'warn', plugins: [onlyModulesFrom(dir)] });
  } catch (error) {
    fail(`${name}: vite build failed: ${error instanceof Error ? error.message : error}`);
  }
  console.log(`${name}: react ${installed}, installed in ${installTime}, built in ${seconds(t2)} → dist/hosts/${name}/dist`);
}

t0 = performance.now();
await Promise.all(Object.entries(hosts).map(([name, host]) => buildHost(name, host)));
console.log(`hosts ready in ${seconds(t0)}`);
