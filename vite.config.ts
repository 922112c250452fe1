import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // Relative base so the built app also works when served from a sub-path or opened from a static host.
  base: './',
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    sourcemap: true,
  },
  worker: {
    // Module workers: the parser worker imports the model as ES modules (and its wasm), like the main thread.
    format: 'es',
  },
  preview: { port: 4173, strictPort: true },
});
