// Builds the example against the built library (npm run build:lib first), not the sources: the
// example is a consumer of the package.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const repo = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  publicDir: repo('public'),
  resolve: {
    alias: [
      { find: /^loupe\/style\.css$/, replacement: repo('dist/lib/loupe.css') },
      { find: /^loupe$/, replacement: repo('dist/lib/loupe.js') },
    ],
  },
  build: { outDir: repo('dist/dashboard'), emptyOutDir: true },
  preview: { port: 4174, strictPort: true },
});
