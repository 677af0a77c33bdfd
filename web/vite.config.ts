import { availableParallelism } from 'node:os';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { loadEnv, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const API_TARGET = 'http://127.0.0.1:8080';
const PROXIED_PREFIXES = ['/v2', '/v1', '/api', '/healthz', '/readyz'];

// Title and icon differ per build variant (SPEC.md section 1): the default build carries the
// Helio brand, the intranet build the translated system title and its own icon. index.html
// holds placeholders so the right values are in the page before any script runs.
function variantHtml(variant: string): Plugin {
  const intranet = variant === 'intranet';
  return {
    name: 'helio-variant-html',
    transformIndexHtml(html) {
      return html
        .replace('%HELIO_TITLE%', intranet ? '云光伏数字化监控系统' : 'Helio')
        .replace('%HELIO_FAVICON%', intranet ? './favicon-intranet.svg' : './favicon.svg');
    },
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  const proxy = Object.fromEntries(
    PROXIED_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: true, ws: true }]),
  );
  return {
    base: './',
    plugins: [react(), variantHtml(env.VITE_HELIO_VARIANT ?? process.env.VITE_HELIO_VARIANT ?? '')],
    resolve: {
      alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    },
    server: { proxy },
    preview: { proxy },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      chunkSizeWarningLimit: 800,
      // Terser packs the console's code a few per cent tighter than esbuild's minifier.
      minify: 'terser',
      terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    },
    test: {
      environment: 'jsdom',
      globals: true,
      include: ['src/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts'],
      setupFiles: ['./src/testing/setup.ts'],
      css: false,
      server: { deps: { inline: [/@arco-design/] } },
      testTimeout: 20000,
      // every core: Vitest's default leaves one idle, which on two cores means one file at a time
      maxWorkers: availableParallelism(),
    },
  };
});
