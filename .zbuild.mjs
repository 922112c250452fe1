import { build } from 'vite';
await build({ configFile: false, root: '/work/main', logLevel: 'warn', build: { ssr: '/tmp/zb/entry.ts', outDir: '/tmp/zb/out', emptyOutDir: true, target: 'node20', rollupOptions: { output: { format: 'es', entryFileNames: '[name].mjs' } } }, ssr: { noExternal: true } });
