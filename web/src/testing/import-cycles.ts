/**
 * The console's module graph and its cycles. A cycle between modules makes their load order
 * decide whether a value is there yet; tests assert there are none (import-cycles.test.ts).
 * Only value imports count: a type-only import leaves nothing at run time.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Each module (a path relative to the root given) and the modules it imports values from. */
export type ModuleGraph = Map<string, string[]>;

const staticImport = /^\s*(?:import|export)\s+(type\s+)?([^;='"()]*?)\s*from\s+['"]([^'"]+)['"]/gm;
const bareImport = /^\s*import\s+['"]([^'"]+)['"]/gm;
const dynamicImport = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The specifiers of the value imports in one module's source. */
export function valueImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(staticImport)) {
    const [, typeOnly, clause = '', spec = ''] = m;
    if (typeOnly || onlyTypes(clause)) continue;
    found.push(spec);
  }
  for (const m of source.matchAll(bareImport)) found.push(m[1] ?? '');
  for (const m of source.matchAll(dynamicImport)) found.push(m[1] ?? '');
  return found;
}

// `{ type A, type B }` with nothing before the braces imports only types.
function onlyTypes(clause: string): boolean {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = (braces[1] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return names.length > 0 && names.every((name) => name.startsWith('type '));
}

const extensions = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function resolveSpec(root: string, from: string, spec: string, alias: string): string | undefined {
  let base: string;
  if (spec.startsWith('@/')) base = join(alias, spec.slice(2));
  else if (spec.startsWith('.')) base = resolve(dirname(join(root, from)), spec);
  else return undefined; // a package
  for (const ext of extensions) {
    const path = base + ext;
    if (existsSync(path) && statSync(path).isFile()) return relative(root, path);
  }
  return undefined;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The graph of the .ts and .tsx modules under root; `@/` names the alias directory. */
export function moduleGraph(root: string, alias = root): ModuleGraph {
  const graph: ModuleGraph = new Map();
  for (const path of sources(root)) {
    const from = relative(root, path);
    const targets = valueImports(readFileSync(path, 'utf8'))
      .map((spec) => resolveSpec(root, from, spec, alias))
      .filter((target): target is string => target !== undefined && /\.tsx?$/.test(target));
    graph.set(from, [...new Set(targets)]);
  }
  return graph;
}

/** The cycles: strongly connected groups of two or more modules, and modules importing themselves. */
export function cycles(graph: ModuleGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}
