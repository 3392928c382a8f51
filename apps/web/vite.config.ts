import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const server = 'http://localhost:8080';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every script, style sheet and page of the build:
 * the server sends the one the browser accepts (@fastify/static `preCompressed`), about a third of
 * the bytes, without compressing on each request.
 */
function precompress(): Plugin {
  return {
    name: 'ebs-precompress',
    apply: 'build',
    // After writing, so that the copies are made of the final (minified) files.
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg)$/.test(name)) continue;
        const source = readFileSync(path.join(dir, name));
        if (source.length < 1024) continue;
        const brotli = {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        };
        writeFileSync(path.join(dir, `${name}.br`), brotliCompressSync(source, brotli));
        writeFileSync(path.join(dir, `${name}.gz`), gzipSync(source, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    // The contract's TypeBox schemas are the server's: the browser gets a stub (src/lib/typebox-stub.ts).
    alias: { '@sinclair/typebox': path.resolve(import.meta.dirname, 'src/lib/typebox-stub.ts') },
  },
  build: {
    outDir: 'dist',
    // ECharts (about 550 kB) is its own chunk, loaded only by the account overview route.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // The contract's schema calls (Type.Object(...), built by the stub in the browser) are pure:
      // a schema no endpoint of the table names is dropped with its texts.
      treeshake: {
        manualPureFunctions: ['Type'],
        // rc-field-form declares no `sideEffects`, so antd's form context (imported by Input, Select,
        // Button…) kept all of it and its validator in the signed-in shell (about 13 kB gzip) even on
        // pages without a form. Its only module-level effects are statics on its own Form and Field,
        // kept wherever those are used.
        moduleSideEffects: (id) => !/[\\/]node_modules[\\/]rc-field-form[\\/]/.test(id),
      },
      output: {
        codeSplitting: {
          // Everything main.tsx imports statically (React, the router, antd's core, TanStack Query) is
          // loaded by every route before anything else: one file instead of a dozen shared chunks.
          groups: [{ name: 'start', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': server,
      '/auth': server,
      '/dev': server,
      '/processor': server,
    },
  },
});
