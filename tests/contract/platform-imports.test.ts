import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Packages that are not HTTP servers: they import the platform (libs/platform) or the contract, never libs/http. */
const NOT_HTTP = ['libs/bus', 'libs/store', 'libs/platform', 'libs/sdk', 'services/mcp', 'services/cli'];

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !f.split(path.sep).includes('node_modules'));
}

/** An import of libs/http: by its package name or by a relative path into it. */
const HTTP_IMPORT =
  /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](@mm\/http(?:\/[^'"]*)?|(?:\.\.\/)+(?:libs\/)?http\/[^'"]*)['"]/g;

function httpImports(source: string): string[] {
  return [...source.matchAll(HTTP_IMPORT)].map((m) => m[1]);
}

describe('libs/http is the HTTP edge only: the bus, the store and the clients import the platform', () => {
  it('recognises an import of libs/http (the scan can fail)', () => {
    expect(httpImports("import { createAjv } from '@mm/http';")).toEqual(['@mm/http']);
    expect(httpImports("import type { EnvReader } from '@mm/http';\nconst x = require('@mm/http');")).toHaveLength(2);
    expect(httpImports("import { x } from '../../http/src/config';")).toEqual(['../../http/src/config']);
    expect(httpImports("import { EnvReader } from '@mm/platform';")).toEqual([]);
  });

  it.each(NOT_HTTP)('%s imports nothing of libs/http', (dir) => {
    const found: string[] = [];
    for (const file of sources(dir))
      for (const i of httpImports(readFileSync(path.join(ROOT, file), 'utf8'))) found.push(`${file}: ${i}`);
    const manifest = JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    for (const deps of [manifest.dependencies, manifest.devDependencies])
      if (deps && '@mm/http' in deps) found.push(`${dir}/package.json: @mm/http`);
    expect(found).toEqual([]);
  });
});
