import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** One static file of the app, with the hash that makes its ETag. */
export interface Asset {
  type: string;
  body: Buffer;
  etag: string;
}

/** The service's folder: `src/..` when run from source, `dist/services/web/src/..` when compiled (assets copied beside). */
const ROOT = path.resolve(__dirname, '..');

function asset(type: string, body: string | Uint8Array): Asset {
  const buf = Buffer.from(body);
  return { type, body: buf, etag: `"${createHash('sha256').update(buf).digest('base64url').slice(0, 16)}"` };
}

/**
 * The stylesheet and the one script, built once at start: the script is bundled and minified by
 * esbuild from client/app.js (in memory, nothing written), the stylesheet read as it is.
 */
export async function buildAssets(): Promise<Record<string, Asset>> {
  const js = await build({
    entryPoints: [path.join(ROOT, 'client', 'app.js')],
    bundle: true,
    minify: true,
    write: false,
    format: 'iife',
    target: 'es2019',
    logLevel: 'silent',
  });
  return {
    'app.js': asset('text/javascript; charset=utf-8', js.outputFiles[0].contents),
    'app.css': asset('text/css; charset=utf-8', readFileSync(path.join(ROOT, 'assets', 'app.css'))),
  };
}
