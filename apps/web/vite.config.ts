import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  // ECharts (about 550 kB) is its own chunk, loaded only by the account overview route.
  build: { outDir: 'dist', chunkSizeWarningLimit: 600 },
  server: {
    proxy: {
      '/api': server,
      '/auth': server,
      '/dev': server,
      '/processor': server,
    },
  },
});
