import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { loadEnv, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { chunkGroups, iconImports, preloadShell } from './build/chunks';

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
        .replace('%HELIO_FAVICON%', intranet ? './favicon-intranet.svg' : './favicon.svg')
        .replace('%HELIO_TOUCH_ICON%', intranet ? './icons/intranet-192.png' : './icons/helio-192.png');
    },
  };
}

// The installed console's colours: Arco's bg-2 (navbar) in each theme.
const THEME_COLOR = { light: '#ffffff', dark: '#232324' };

/** The web app manifest of a build variant (docs/frontend.md, "Installable"). */
export function webManifest(variant: string) {
  const intranet = variant === 'intranet';
  const icon = intranet ? 'intranet' : 'helio';
  return {
    id: './',
    name: intranet ? '云光伏数字化监控系统' : 'Helio',
    short_name: intranet ? '云光伏' : 'Helio',
    description: intranet ? '光伏电站监控与运维' : 'Monitoring and operations for solar power stations',
    start_url: './',
    scope: './',
    display: 'standalone',
    orientation: 'any',
    theme_color: THEME_COLOR.light,
    background_color: THEME_COLOR.light,
    icons: [
      { src: `./icons/${icon}-192.png`, sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: `./icons/${icon}-512.png`, sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: `./icons/${icon}-maskable-192.png`, sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: `./icons/${icon}-maskable-512.png`, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

const SW_SHELL = "const SHELL = { version: '', files: [] };";

/** Every file under dir, as paths relative to it with forward slashes. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/**
 * Installable: the manifest (served at /manifest.webmanifest, also by the development server),
 * and the service worker's list of the bundle's files with a version from their contents,
 * written into the built sw.js so a new bundle is a new worker and a new cache.
 */
function installable(variant: string): Plugin {
  const manifest = `${JSON.stringify(webManifest(variant), null, 2)}\n`;
  const otherEdition = variant === 'intranet' ? /^(icons\/helio-|favicon\.svg$)/ : /^(icons\/intranet-|favicon-intranet\.svg$)/;
  let outDir = 'dist';
  return {
    name: 'helio-installable',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use('/manifest.webmanifest', (_req, res) => {
        res.setHeader('Content-Type', 'application/manifest+json');
        res.end(manifest);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: manifest });
    },
    closeBundle: {
      order: 'post',
      handler() {
        const swPath = join(outDir, 'sw.js');
        const sw = readFileSync(swPath, 'utf8');
        if (!sw.includes(SW_SHELL)) {
          throw new Error(`${swPath} has no line "${SW_SHELL}" for the list of the bundle's files`);
        }
        const files = filesUnder(outDir).filter((file) => file !== 'sw.js' && !file.endsWith('.map') && !otherEdition.test(file));
        const hash = createHash('sha256');
        for (const file of files) {
          hash.update(`${file}\0`).update(readFileSync(join(outDir, file))).update('\0');
        }
        const version = hash.digest('hex').slice(0, 16);
        writeFileSync(swPath, sw.replace(SW_SHELL, `const SHELL = ${JSON.stringify({ version, files })};`));
      },
    },
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  const variant = env.VITE_HELIO_VARIANT ?? process.env.VITE_HELIO_VARIANT ?? '';
  const proxy = Object.fromEntries(
    PROXIED_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: true, ws: true }]),
  );
  return {
    base: './',
    plugins: [iconImports(), react(), variantHtml(variant), installable(variant), preloadShell()],
    resolve: {
      alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    },
    server: { proxy },
    preview: { proxy },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      chunkSizeWarningLimit: 800,
      // a few large files rather than a hundred small ones: build/chunks.ts
      rollupOptions: { output: { manualChunks: chunkGroups() } },
      // Terser packs the console's code a few per cent tighter than esbuild's minifier.
      minify: 'terser',
      terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    },
    test: {
      environment: 'jsdom',
      globals: true,
      include: ['src/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts', 'build/**/*.test.ts'],
      setupFiles: ['./src/testing/setup.ts'],
      css: false,
      server: { deps: { inline: [/@arco-design/] } },
      testTimeout: 20000,
      // every core: Vitest's default leaves one idle, which on two cores means one file at a time
      maxWorkers: availableParallelism(),
    },
  };
});
