import { defaultClientConditions, defineConfig } from 'vite';

/**
 * Cross-origin isolation (COOP + COEP) makes SharedArrayBuffer available, which multi-threaded
 * samplers need in a browser. The site works without it (every sampler runs on one thread here),
 * but dev and preview send the headers so that the static build behaves the same behind a host
 * that does.
 */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: import.meta.dirname,
  // Relative asset URLs: the build can be served from any path of any static host.
  base: './',
  // Workspace packages resolve to their TypeScript source, as in the tests: no upstream build needed.
  resolve: { conditions: ['@boltzmann/source', ...defaultClientConditions] },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096,
    // Rolldown's report of which plugin callbacks took the build's time (the worker URL transform
    // re-bundling the workers) says nothing about the output: the build prints only what it wrote.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
});
