import type { Plugin } from 'vite';

/**
 * How the console's code is cut into files (docs/perf-phone.md). A phone on a slow link pays a
 * round trip per file, six at a time over HTTP/1.1: left to itself, Rollup cut the work-order
 * screen into 69 scripts and 22 style sheets, mostly Arco components of a few hundred bytes each.
 * Four named groups instead, each a set of modules found by walking the static imports:
 *
 * - `app`: what the entry (src/main.tsx) needs before anything draws;
 * - `data`: what the screens' prefetch modules need, so a screen's first calls go out before
 *   its components arrive;
 * - `common`: what the sign-in page and the signed-in shell both need;
 * - `core`: the signed-in shell (app/layout) and the list components every list screen draws.
 *
 * Everything else (a screen's own code, the components only some screens use) is cut by Rollup.
 */
const ENTRY = /\/src\/main\.tsx$/;
const PREFETCH = /\/src\/features\/[^/]+\/prefetch[^/]*\.ts$/;
const LOGIN = /\/src\/app\/routes\/login-route\.tsx$/;
const CORE = [/\/src\/app\/layout\/app-layout\.tsx$/, /\/src\/components\/(list\/)?(?!date-pickers)[^/]+\.tsx?$/];

export type ChunkGroup = 'app' | 'data' | 'common' | 'core';

export interface ModuleGraph {
  getModuleIds: () => IterableIterator<string>;
  getModuleInfo: (id: string) => { importedIds: readonly string[] } | null;
}

/** The modules reachable by static imports from roots (the roots included). */
export function reachable(graph: ModuleGraph, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** Rollup's manualChunks: the group of each module, computed once from the whole graph. */
export function chunkGroups() {
  let groups: Map<string, ChunkGroup> | null = null;
  return (id: string, graph: ModuleGraph): ChunkGroup | undefined => {
    groups ??= groupModules(graph);
    return groups.get(id);
  };
}

export function groupModules(graph: ModuleGraph): Map<string, ChunkGroup> {
  const ids = [...graph.getModuleIds()];
  const from = (...patterns: RegExp[]) => reachable(graph, ids.filter((id) => patterns.some((p) => p.test(id))));
  const entry = from(ENTRY);
  const data = from(PREFETCH);
  const login = from(LOGIN);
  const core = from(...CORE);
  const groups = new Map<string, ChunkGroup>();
  for (const id of ids) {
    // the entry module itself stays the entry chunk, the one index.html loads
    if (ENTRY.test(id)) continue;
    if (entry.has(id)) groups.set(id, 'app');
    else if (data.has(id)) groups.set(id, 'data');
    else if (core.has(id)) groups.set(id, login.has(id) ? 'common' : 'core');
  }
  return groups;
}

/** The files of the named chunks and the style sheets they import, in the order given. */
export function groupFiles(bundle: Record<string, unknown>, names: readonly ChunkGroup[]): string[] {
  const files: string[] = [];
  for (const name of names) {
    for (const output of Object.values(bundle)) {
      const chunk = output as { type: string; name?: string; fileName: string; viteMetadata?: { importedCss: Set<string> } };
      if (chunk.type !== 'chunk' || chunk.name !== name) continue;
      files.push(...(chunk.viteMetadata?.importedCss ?? []), chunk.fileName);
    }
  }
  return files;
}

/**
 * A signed-in visit (a session token kept, an address other than the sign-in page's) fetches the
 * shell's files beside the entry instead of after it has run: on a slow link the entry alone
 * takes a second. The style sheets block the first paint until they are in (as Vite's own loader
 * waits for a chunk's styles), so no screen draws unstyled.
 */
export function preloadScript(files: readonly string[], tokenKey: string): string {
  return [
    '(function () {',
    `  try { if (!localStorage.getItem(${JSON.stringify(tokenKey)}) || /^#\\/login/.test(location.hash)) return; } catch (e) { return; }`,
    `  ${JSON.stringify(files)}.forEach(function (file) {`,
    "    var link = document.createElement('link');",
    "    if (/\\.css$/.test(file)) { link.rel = 'stylesheet'; link.setAttribute('blocking', 'render'); }",
    "    else { link.rel = 'modulepreload'; link.crossOrigin = ''; }",
    '    link.href = new URL(file, document.baseURI).href;',
    '    document.head.appendChild(link);',
    '  });',
    '})();',
  ].join('\n');
}

const ICON_BARREL = /import\s*\{([^}]*)\}\s*from\s*'@arco-design\/web-react\/icon';/g;

/**
 * `import { IconX } from '@arco-design/web-react/icon'` as one import per icon module. The
 * barrel re-exports every icon: a walk of static imports through it (groupModules) would reach
 * every icon the console uses anywhere from the entry, and put them all in \`app\`.
 */
export function directIconImports(code: string): string {
  return code.replace(ICON_BARREL, (_all, names: string) =>
    names
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '')
      .map((name) => {
        const [icon, local = icon] = name.split(/\s+as\s+/);
        return `import ${local} from '@arco-design/web-react/icon/react-icon/${icon}/index.js';`;
      })
      .join(' '),
  );
}

export function iconImports(): Plugin {
  return {
    name: 'helio-icon-imports',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/.*\.tsx?$/.test(id) || !code.includes("'@arco-design/web-react/icon'")) return null;
      return { code: directIconImports(code), map: null };
    },
  };
}

/** Where the console keeps the session token (src/lib/storage.ts, STORAGE_KEYS.token; tested equal). */
export const SESSION_TOKEN_KEY = 'helio-token';

export function preloadShell(): Plugin {
  return {
    name: 'helio-preload-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle) return [];
        const files = groupFiles(ctx.bundle, ['data', 'common', 'core']);
        if (files.length === 0) throw new Error('no data, common or core chunk in the bundle: see build/chunks.ts');
        return [{ tag: 'script', children: preloadScript(files.map((f) => `./${f}`), SESSION_TOKEN_KEY), injectTo: 'head' }];
      },
    },
  };
}
