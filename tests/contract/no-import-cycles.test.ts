import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The source of every service and library (tests, scripts, generated files and node_modules apart). */
function sourceFiles(): string[] {
  return ['services', 'libs'].flatMap((top) =>
    readdirSync(path.join(ROOT, top), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
      .filter((f) => {
        const parts = f.split(path.sep);
        return !parts.includes('node_modules') && parts.includes('src');
      }),
  );
}

/** Relative modules a file imports or re-exports, type-only ones too (a type circle still ties two files together). */
const RELATIVE = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

function relativeImports(source: string): string[] {
  return [...source.matchAll(RELATIVE)].map((m) => m[1]);
}

function resolve(from: string, spec: string): string | null {
  const base = path.join(path.dirname(from), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ])
    if (/\.tsx?$/.test(candidate) && existsSync(path.join(ROOT, candidate))) return candidate;
  return null;
}

/** Every circle of the graph (Tarjan's strongly connected components of two files or more). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('no import circles between source files', () => {
  it('finds a circle when there is one (the check can fail)', () => {
    expect(
      relativeImports("import type { A } from './a';\nexport { b } from '../b';\nimport x from '@mm/http';"),
    ).toEqual(['./a', '../b']);
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(g)).toEqual([['a', 'b', 'c']]);
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('services and libraries import in one direction only', () => {
    const graph = new Map<string, string[]>();
    for (const file of sourceFiles()) {
      const source = readFileSync(path.join(ROOT, file), 'utf8');
      graph.set(
        file,
        relativeImports(source)
          .map((spec) => resolve(file, spec))
          .filter((f): f is string => f !== null),
      );
    }
    expect(graph.size).toBeGreaterThan(300);
    expect(circles(graph)).toEqual([]);
  });
});
