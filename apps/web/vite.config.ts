import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist' },
  server: {
    proxy: {
      '/api': server,
      '/auth': server,
      '/dev': server,
      '/processor': server,
    },
  },
});
