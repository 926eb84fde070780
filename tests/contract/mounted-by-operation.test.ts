import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_ROUTES, ALL_OPERATIONS, APP_INTERNAL_ROUTES } from '@mm/contract';

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
    paths: [
      '/sign-in',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      '/${purpose}/:secret',
      '/reset',
      '/sign-out',
      '/sessions/sign-out-others',
      '/password',
      '/email',
    ],
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
    // The app (services/web) included: it calls them by operationId (the describe below).
    const files = [...sources('services'), ...sources('libs')].filter(
      (f) => !f.startsWith(path.join('libs', 'contract')),
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

/** The app's client of the services: the one file that may fetch, and the methods it offers (each takes an operationId). */
const BACKEND_CLIENT = path.join('services', 'web', 'src', 'services', 'backend.client.ts');
const BACKEND_METHODS = ['operation', 'stream', 'upload'];

/**
 * The static start of every path of every table (public, admin, the admin operations' `forward`
 * paths, the app's): `/recordings/` of `/recordings/{id}/status`, `/series/readable` whole. A
 * path a source spells starting so is a service's path written by hand.
 */
function tablePathStarts(): { start: string; whole: boolean }[] {
  const paths = new Set<string>();
  for (const op of ALL_OPERATIONS) {
    paths.add(op.path);
    if ('forward' in op && op.forward) paths.add(op.forward.path);
  }
  return [...paths].map((p) => ({ start: p.split('{')[0], whole: !p.includes('{') }));
}

/**
 * What the app spells of a service call by hand, in one source: a `fetch` outside the client, a
 * client method that takes a path (`backend.call(service, principal, method, path)`,
 * `backend.raw(...)`), or a literal starting with a table's path (`/recordings/${id}/status`,
 * `'/series/readable'`, `/internal/app/search?${params}`). The app's own pages (`router.get('/series/:id', …)`)
 * are its routes, not calls: the first argument of a mount is left out of the scan.
 */
function handCalls(file: string, source: string): string[] {
  const found: string[] = [];
  const code = source.replace(
    /\b\w+\s*\.\s*(get|post|put|patch|delete|head|all|use)\(\s*(['"`])[^'"`]*\2/g,
    (m, method) => `${method}(''`,
  );
  if (path.normalize(file) !== BACKEND_CLIENT)
    for (const m of code.matchAll(/\bfetch\s*\(/g)) found.push(`${file}: fetch outside the client: ${m[0]}`);
  for (const m of code.matchAll(/\bbackend\s*\.\s*(\w+)\s*[<(]/g))
    if (!BACKEND_METHODS.includes(m[1])) found.push(`${file}: backend.${m[1]}`);
  const starts = tablePathStarts();
  for (const m of code.matchAll(/['"`](\/[^'"`\s]*)/g)) {
    const literal = m[1];
    const hit = starts.find(({ start, whole }) =>
      whole
        ? literal === start || (/^[?$]/.test(literal.slice(start.length)) && literal.startsWith(start))
        : literal.startsWith(start),
    );
    if (hit) found.push(`${file}: ${literal}`);
  }
  return found;
}

describe('the app (services/web) calls the services by operationId, never by a path of its own', () => {
  it('recognises a service path written by hand (the scan can fail)', () => {
    // The forms the app used before it called by operation (issue 27), each caught on its own.
    const old = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      "const s = await backend.call<MeetingStatus>(\n  'recordings',\n  ctx.principal,\n  'GET',\n  `/recordings/${idOf(req)}/status`,\n);",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      "const up = await backend.raw('recordings', ctx.principal, `/internal/app/recordings/${idOf(req)}/audio`, range);",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      "return await backend.call<Page>('recordings', principal, 'GET', `/internal/app/search?${params}`);",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      "const admin = (req: Request, tail = '') => `/internal/admin/recordings/${idOf(req)}${tail}`;",
      "deps.backend\n  .call<{ items: Item[] }>('series', ctx.principal, 'GET', '/series/readable')",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      "const url = `/events?limit=500${after ? `&after=${after}` : ''}`;",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      'return fetch(`${this.urls.recordings}/internal/admin/recordings`, { method: "POST" });',
      "const path = '/account';",
    ];
    for (const form of old) expect([form, handCalls('x.ts', form).length > 0]).toEqual([form, true]);
    // The app's own pages and links are not calls of a service.
    const pages = [
      "router.get(\n    '/recordings/:id/audio',\n    signedIn(deps, async () => {}))",
      "router.post('/series', form, h)",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
      'res.redirect(303, `${base}/series/${encodeURIComponent(id)}?done=1`);',
      "await backend.operation('getRecordingStatus', principal, { params: { id } });",
      "const up = await backend.stream('appGetMeetingAudio', principal, { params: { id }, headers: {} });",
      "headers.get('content-type');",
    ].join('\n');
    expect(handCalls('x.ts', pages)).toEqual([]);
  });

  it('finds no service path written by hand in services/web', () => {
    const found: string[] = [];
    for (const file of sources('services').filter((f) => f.startsWith(path.join('services', 'web', 'src'))))
      found.push(...handCalls(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it("offers the app no way to the services but by operationId: the client's methods each take one", async () => {
    const { Backend } = await import('../../services/web/src/services/backend.client');
    const methods = Object.getOwnPropertyNames(Backend.prototype).filter((n) => n !== 'constructor');
    expect(methods.sort()).toEqual([...BACKEND_METHODS].sort());
  });
});
