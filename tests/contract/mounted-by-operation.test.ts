import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_ROUTES, APP_INTERNAL_ROUTES } from '@mm/contract';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * The routes that are no operation of the contract's tables, each for its reason. Everything
 * else a service answers is mounted by operationId (`mountOperation`, `mountForwarded`), with
 * the method, path and schemas of its table.
 */
const NOT_OPERATIONS: Record<string, { paths: string[]; why: string }> = {
  'libs/http/src/app.ts': { paths: ['/readyz', '/metrics', '/healthz'], why: "every process's health and metrics" },
  'services/gateway/src/cluster.ts': {
    paths: ['/healthz', '/readyz', '/metrics'],
    why: "the gateway's primary process: health and metrics while its workers answer",
  },
  'services/mcp/src/http.ts': {
    paths: ['/mcp', 'METADATA_PATH'],
    why: 'the MCP transport: JSON-RPC of the MCP protocol, whose tools call the public API',
  },
  'services/gateway/src/routes/app-door.routes.ts': {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
    paths: ['/sign-in', '/${purpose}/:secret', '/reset', '/sign-out', '/sessions/sign-out-others', '/password'],
    why: "the app's sign-in forms: HTML form posts answered by redirects, like the app's pages (services/web)",
  },
};

/** `router.get('/x'`, `app.post(\n  \`/y\``, `r.all([A, B]`: a route mounted by hand, with its path. */
const HAND_MOUNT = /\b\w+\s*\.\s*(get|post|put|patch|delete|head|all|options)\(\s*(\[\s*)?(['"`])?([^'"`,\])\s]*)/g;
/** A method picked by a variable: `router[method](`, anywhere but the mounting helper. */
const DYNAMIC_MOUNT = /\b\w+\[\s*\w+(\.method)?\s*\]\(\s*(expressPath|['"`])/g;

/** The sources of every package's `src` under `dir` (services, libs). */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !f.split(path.sep).includes('node_modules') && f.split(path.sep)[2] === 'src');
}

/** The routes mounted by hand in one source: `file: METHOD path`. */
function handMounts(file: string, source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(HAND_MOUNT)) {
    const [, method, list, quote, target] = m;
    // A path (a literal starting with /) or a list of paths: a route. Anything else is a getter (`map.get(k)`).
    const isPath = quote ? target.startsWith('/') : list !== undefined && /^[A-Z_]+$/.test(target);
    if (!isPath) continue;
    found.push(`${file}: ${method.toUpperCase()} ${target}`);
  }
  for (const m of source.matchAll(DYNAMIC_MOUNT)) found.push(`${file}: ${m[0]}`);
  return found;
}

describe('every route a service answers is an operation of the contract, mounted by its operationId', () => {
  it('recognises a route mounted by hand (the scan can fail)', () => {
    const hand = [
      "router.get(\n    '/internal/app/recordings/:id/sheet',\n    wrap(async () => {}))",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      'router.get(`/internal/app/${kind}/:id/asks`, async (req, res) => {})',
      "app.post('/x', h)",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      'app.get([METADATA_PATH, `${METADATA_PATH}/mcp`], h)',
      'router[op.method](expressPath(op.path), run)',
    ].join('\n');
    expect(handMounts('x.ts', hand)).toHaveLength(5);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
    const notRoutes = "headers.get('content-type'); map.get(key); params.get('next'); redis.get(`k:${id}`);";
    expect(handMounts('x.ts', notRoutes)).toEqual([]);
  });

  it('finds no route mounted by hand in services (but the app, services/web) and libs', () => {
    const files = [...sources('services'), ...sources('libs')].filter(
      (f) => !f.startsWith(`services${path.sep}web${path.sep}`) && f !== path.join('libs', 'http', 'src', 'mount.ts'),
    );
    const found: string[] = [];
    for (const file of files) {
      const allowed = NOT_OPERATIONS[file.split(path.sep).join('/')];
      for (const hit of handMounts(file, readFileSync(path.join(ROOT, file), 'utf8'))) {
        if (allowed?.paths.some((p) => hit.endsWith(` ${p}`))) continue;
        found.push(hit);
      }
    }
    expect(found).toEqual([]);
  });

  it('spells no path of the admin and app tables outside the contract (the gateway forwards to `forward` paths)', () => {
    const paths = new Set<string>();
    for (const op of [...ADMIN_ROUTES, ...APP_INTERNAL_ROUTES]) {
      if (op.forward) paths.add(op.forward.path);
      if (op.path.startsWith('/internal/')) paths.add(op.path);
    }
    // As a source spells them: `/internal/admin/recordings/:id` or `/internal/admin/recordings/${id}`.
    const spelled = (p: string) => [p.replace(/\{(\w+)\}/g, ':$1'), p.split('{')[0]].filter((s) => s.length > 1);
    const files = [...sources('services'), ...sources('libs')].filter(
      (f) => !f.startsWith(`services${path.sep}web${path.sep}`) && !f.startsWith(path.join('libs', 'contract')),
    );
    const found: string[] = [];
    for (const file of files) {
      const source = readFileSync(path.join(ROOT, file), 'utf8');
      for (const p of paths)
        for (const s of spelled(p))
          if (new RegExp(`['"\`]${s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"\`$]`).test(source))
            found.push(`${file}: ${s}`);
    }
    expect(found).toEqual([]);
  });
});
