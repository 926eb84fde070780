/**
 * Compiles `mm` into one CommonJS file, `dist/mm.cjs` (the SDK, the contract and commander bundled
 * in), which `bin/mm.js` runs with plain node: no TypeScript compiled at start, few files read, so
 * `mm --version` answers in well under 300 ms (measured by `pnpm bench --only cli-start`).
 */
import path from 'node:path';
import { build } from 'esbuild';

const root = path.join(__dirname, '..');

build({
  entryPoints: [path.join(root, 'src', 'main.ts')],
  outfile: path.join(root, 'dist', 'mm.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minifySyntax: true,
  logLevel: 'warning',
}).then(
  () => process.stdout.write(`built ${path.join(root, 'dist', 'mm.cjs')}\n`),
  (err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  },
);
