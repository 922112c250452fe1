#!/usr/bin/env node
// Prints the library's size after `vite build --config vite.lib.config.ts`: each JS and CSS file
// of dist/lib, raw and gzip, and the total a host downloads for `<SessionViewer>` (its
// dependencies — React, zod, … — are the host's, counted separately by its bundler; its React UI
// libraries, react-markdown and react-diff-viewer, are in it, lazily where they can be).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = new URL('../dist/lib/', import.meta.url).pathname;
const files = [];
(function walk(path) {
  for (const name of readdirSync(path)) {
    const full = join(path, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'types') walk(full);
    } else if (/\.(js|css)$/.test(name)) files.push(full);
  }
})(dir);
let raw = 0;
let gz = 0;
for (const file of files.sort()) {
  const bytes = readFileSync(file);
  const zipped = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += zipped;
  console.log(`${file.slice(dir.length).padEnd(40)} ${(bytes.length / 1024).toFixed(1).padStart(8)} kB  gzip ${(zipped / 1024).toFixed(1).padStart(7)} kB`);
}
console.log(`${'library total'.padEnd(40)} ${(raw / 1024).toFixed(1).padStart(8)} kB  gzip ${(gz / 1024).toFixed(1).padStart(7)} kB`);
