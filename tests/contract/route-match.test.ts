import { APP_ONLY_ROUTES, ROUTES, RouteMatcher, type HttpMethod } from '@mm/contract';

type Target = { id: string };

const publicAndAppOnly = new RouteMatcher<Target>([
  ...ROUTES.map((r) => ({ method: r.method, path: r.path, route: { id: r.operationId } })),
  ...APP_ONLY_ROUTES.map((r) => ({ method: r.method, path: r.path, route: { id: `app:${r.method} ${r.path}` } })),
]);

function routeOf(
  method: string,
  path: string,
): { id: string; params: Record<string, string> } | 'method mismatch' | null {
  const m = publicAndAppOnly.match(method, path);
  if (m === null) return null;
  if ('methodMismatch' in m) return 'method mismatch';
  return { id: m.route.id, params: m.params };
}

describe('RouteMatcher', () => {
  it('prefers the literal /recordings/ready over /recordings/{id}', () => {
    expect(routeOf('GET', '/recordings/ready')).toEqual({ id: 'listReadyRecordings', params: {} });
    expect(routeOf('GET', '/recordings/search')).toEqual({ id: 'searchRecordings', params: {} });
  });

  it('prefers the literal /series/readable over /series/{id}', () => {
    expect(routeOf('GET', '/series/readable')).toEqual({ id: 'listReadableSeries', params: {} });
    expect(routeOf('GET', '/series/s_123')).toEqual({ id: 'getSeries', params: { id: 's_123' } });
  });

  it('falls through to the parameter route when the literal route has another method', () => {
    // PATCH /series/readable is an update of a series whose id is "readable" (it will be 404).
    expect(routeOf('PATCH', '/series/readable')).toEqual({ id: 'updateSeries', params: { id: 'readable' } });
    expect(routeOf('DELETE', '/recordings/ready')).toEqual({
      id: 'app:delete /recordings/{id}',
      params: { id: 'ready' },
    });
  });

  it('prefers the leftmost literal segment whatever the count of literals', () => {
    const m = new RouteMatcher<string>([
      { method: 'get', path: '/a/{x}/c/d', route: 'param-first' },
      { method: 'get', path: '/a/b/{y}/{z}', route: 'literal-first' },
    ]);
    expect(m.match('get', '/a/b/c/d')).toEqual({ route: 'literal-first', params: { y: 'c', z: 'd' } });
    expect(m.match('get', '/a/q/c/d')).toEqual({ route: 'param-first', params: { x: 'q' } });
  });

  it('extracts path parameters of nested routes', () => {
    expect(routeOf('GET', '/recordings/r1/ask/quote')).toEqual({ id: 'quoteRecordingAsk', params: { id: 'r1' } });
    expect(routeOf('POST', '/recordings/r1/ask')).toEqual({ id: 'askRecording', params: { id: 'r1' } });
    expect(routeOf('PUT', '/series/s1/keyterms')).toEqual({ id: 'replaceSeriesKeyterms', params: { id: 's1' } });
    expect(routeOf('DELETE', '/account/memory/m1')).toEqual({ id: 'deleteMemoryItem', params: { id: 'm1' } });
  });

  it('answers a method mismatch when only the method is wrong', () => {
    expect(routeOf('DELETE', '/whoami')).toBe('method mismatch');
    expect(routeOf('POST', '/recordings/ready')).toBe('method mismatch');
    expect(routeOf('GET', '/recordings/r1/retry')).toBe('method mismatch');
  });

  it('answers null for a path that is no route', () => {
    expect(routeOf('GET', '/nope')).toBeNull();
    expect(routeOf('GET', '/whoami/')).toBeNull();
    expect(routeOf('GET', '/recordings/r1/status/extra')).toBeNull();
    expect(routeOf('GET', '/recordings//status')).toBeNull();
  });

  it('accepts the method in any case', () => {
    for (const method of ['get', 'GET', 'Get'])
      expect(routeOf(method, '/whoami')).toEqual({ id: 'whoami', params: {} });
  });

  it('percent-decodes parameters, keeps encoded slashes inside one segment, and leaves malformed escapes as sent', () => {
    expect(routeOf('GET', '/recordings/a%20b/status')).toEqual({ id: 'getRecordingStatus', params: { id: 'a b' } });
    expect(routeOf('GET', '/series/%D8%B3%D9%84%D8%A7%D9%85')).toEqual({ id: 'getSeries', params: { id: 'سلام' } });
    expect(routeOf('GET', '/recordings/a%2Fb/status')).toEqual({ id: 'getRecordingStatus', params: { id: 'a/b' } });
    expect(routeOf('GET', '/recordings/%E0%A4%A/status')).toEqual({
      id: 'getRecordingStatus',
      params: { id: '%E0%A4%A' },
    });
  });

  it('matches every public route at its own path with its own method', () => {
    for (const r of ROUTES) {
      const concrete = r.path.replace('{id}', 'x1');
      expect([r.operationId, routeOf(r.method.toUpperCase() as Uppercase<HttpMethod>, concrete)]).toEqual([
        r.operationId,
        { id: r.operationId, params: r.path.includes('{id}') ? { id: 'x1' } : {} },
      ]);
    }
  });
});
