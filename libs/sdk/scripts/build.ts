/**
 * Builds the package that `pnpm pack` makes (see publishConfig): `dist/index.mjs` (ESM) and
 * `dist/index.cjs` (CommonJS), each one self-contained file for Node 20 (openapi-fetch bundled in,
 * so the package has no dependency), and the declarations in `dist/types`, their relative imports
 * written with `.js` so that both module resolutions of TypeScript (node16 and bundler) follow them.
 * Inside this repository the services keep using the TypeScript sources.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');

async function declarations(): Promise<void> {
  const tsc = require.resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  const types = path.join(dist, 'types');
  const files = (await fs.readdir(types, { recursive: true })).filter((f) => f.endsWith('.d.ts'));
  for (const name of files) {
    const file = path.join(types, name);
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace(/(from |import\()'(\.{1,2}\/[^']+)'/g, "$1'$2.js'"));
  }
}

async function main(): Promise<void> {
  await fs.rm(dist, { recursive: true, force: true });
  const common = {
    entryPoints: [path.join(root, 'src', 'index.ts')],
    bundle: true,
    platform: 'node' as const,
    target: 'node20',
    sourcemap: false,
    logLevel: 'warning' as const,
  };
  await build({ ...common, format: 'esm', outfile: path.join(dist, 'index.mjs') });
  await build({ ...common, format: 'cjs', outfile: path.join(dist, 'index.cjs') });
  await declarations();
  process.stdout.write(`built ${dist}\n`);
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
