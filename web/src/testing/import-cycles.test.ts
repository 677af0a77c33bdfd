import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cycles, moduleGraph, valueImports } from './import-cycles';

describe('import cycles', () => {
  it('reads value imports and leaves type-only ones out', () => {
    const source = [
      "import { a, type B } from './a';",
      "import type { C } from './c';",
      "import { type D, type E } from './d';",
      'import {',
      '  f,',
      '  g,',
      "} from '@/lib/f';",
      "export * from './h';",
      "export type { I } from './i';",
      "import './style.css';",
      "const Page = lazy(() => import('./page'));",
      "export const x = 1; const y = 'from';",
    ].join('\n');
    expect(valueImports(source)).toEqual(['./a', '@/lib/f', './h', './style.css', './page']);
  });

  it('finds a cycle through an alias and a directory index', () => {
    const root = mkdtempSync(join(tmpdir(), 'cycles-'));
    try {
      mkdirSync(join(root, 'lib'));
      writeFileSync(join(root, 'a.ts'), "import { b } from './lib';\nexport const a = b;\n");
      writeFileSync(join(root, 'lib', 'index.ts'), "export { c as b } from './c';\n");
      writeFileSync(join(root, 'lib', 'c.ts'), "import { a } from '@/a';\nexport const c = () => a;\n");
      writeFileSync(join(root, 'd.ts'), "import type { a } from './a';\nexport type D = typeof a;\n");
      expect(cycles(moduleGraph(root))).toEqual([['a.ts', 'lib/c.ts', 'lib/index.ts']]);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it('finds none in the console', () => {
    const src = resolve(__dirname, '..');
    const graph = moduleGraph(src);
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph)).toEqual([]);
  });
});
