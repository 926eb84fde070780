import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import client from 'prom-client';
import type { Logger } from 'pino';
import {
  ApiError,
  healthBody,
  PRINCIPAL_HEADER,
  PrincipalVerifier,
  serviceRegistry,
  type Principal,
} from '@mm/platform';
import { checkUrlEncoding, writeError, writeNotFound } from './edge';
import { JSON_TYPES } from './validate';

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  /** Answers /readyz: true when the service's dependencies answer. */
  ready: () => Promise<boolean>;
  /** Verifies the gateway's principal; omitted for the gateway itself. */
  verifier?: PrincipalVerifier;
  /** Largest JSON body accepted. */
  jsonLimit?: string;
  /** False for the gateway, which streams bodies through unparsed. */
  parseJson?: boolean;
  /** False for the gateway: /readyz and /metrics live on its ops port (createOpsApp), not the public one. */
  opsRoutes?: boolean;
}

/** /readyz (dependencies answer) and /metrics (prometheus). */
function mountOps(app: Express, opts: Pick<ServiceAppOptions, 'name' | 'ready'>): void {
  const { registry } = metricsFor(opts.name);
  app.get('/readyz', async (_req, res) => {
    const ok = await opts.ready().catch(() => false);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready' });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
}

/** The operator's port of a service whose main port is public: /healthz, /readyz, /metrics and a plain 404. */
export function createOpsApp(opts: Pick<ServiceAppOptions, 'name' | 'ready'>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json(healthBody());
  });
  mountOps(app, opts);
  app.use((_req: Request, res: Response) => writeNotFound(res));
  return app;
}

const durations = new Map<string, client.Histogram>();

/** A service's registry (the platform's, shared with its libraries) and its request latency histogram. */
function metricsFor(name: string): { registry: client.Registry; duration: client.Histogram } {
  const registry = serviceRegistry(name);
  let duration = durations.get(name);
  if (!duration) {
    duration = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers: [registry],
    });
    durations.set(name, duration);
  }
  return { registry, duration };
}

/** Per-request facts the log line reads when the response finishes. */
export interface RequestFacts {
  reqId?: string;
  route?: string;
  tokenId?: string | null;
  principal?: Principal;
}

/**
 * Gives a request its id (kept from a well-formed X-Request-Id), and when the response finishes
 * records its latency in the histogram and writes one JSON log line (never a token or body).
 * Plain node:http handlers use it as well as express apps.
 */
export function requestObserver(name: string, logger: Logger) {
  const { duration } = metricsFor(name);
  return (req: IncomingMessage, res: ServerResponse, routeOf: () => string, facts: RequestFacts): void => {
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const reqId = typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    facts.reqId = reqId;
    res.setHeader('X-Request-Id', reqId);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = routeOf();
      duration.observe({ method: req.method ?? '', route, status: String(res.statusCode) }, ms / 1000);
      const path = req.url ?? '';
      if (path === '/healthz' || path === '/readyz' || path === '/metrics') return;
      const p = facts.principal;
      logger.info(
        {
          reqId,
          method: req.method,
          route,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          tokenId: p?.tokenId ?? facts.tokenId ?? null,
          accountId: p?.accountId ?? null,
        },
        'request',
      );
    });
  };
}

/** The principal the gateway vouched for; set by the principal middleware. */
export function principalOf(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  if (!p) throw new ApiError('UNAUTHORIZED', 'No principal.');
  return p;
}

/**
 * Builds the express app every service starts from: request ids, one JSON log line per request,
 * /healthz, /readyz, /metrics, JSON bodies, and (for internal services) the gateway's principal.
 * Mount routes on the result, then call `finishApp`.
 */
export function createServiceApp(opts: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const observe = requestObserver(opts.name, opts.logger);
  app.use((req: Request, res: Response, next: NextFunction) => {
    observe(
      req,
      res,
      () => (res.locals.route as string | undefined) ?? (req.route?.path as string | undefined) ?? 'unmatched',
      res.locals,
    );
    try {
      checkUrlEncoding(req.url);
      next();
    } catch (err) {
      next(err);
    }
  });

  app.get('/healthz', (_req, res) => {
    res.json(healthBody());
  });
  if (opts.opsRoutes !== false) mountOps(app, opts);

  if (opts.verifier) {
    const verifier = opts.verifier;
    app.use(async (req: Request, res: Response, next: NextFunction) => {
      try {
        res.locals.principal = await verifier.verify(req.headers[PRINCIPAL_HEADER] as string | undefined);
        next();
      } catch (err) {
        next(err);
      }
    });
  }

  if (opts.parseJson !== false) app.use(jsonBody(opts.jsonLimit ?? '1mb'));
  return app;
}

/**
 * express.json for JSON bodies, refusing bytes that are not UTF-8 (400 VALIDATION): decoded as
 * they are, they would be stored with U+FFFD in their place (a series name, a keyterm, a note).
 * A lone surrogate written as an escape (`"\ud800"`) is refused alike: it is no character, and
 * Postgres would store U+FFFD for it.
 */
export function jsonBody(limit: string): RequestHandler {
  // Bodies whose text escapes a surrogate at all (UTF-8 bytes cannot hold one): only these are walked.
  const escapesSurrogates = new WeakSet<object>();
  const parse = express.json({
    limit,
    type: JSON_TYPES,
    verify: (req, _res, buf) => {
      if (!isUtf8(buf)) throw new ApiError('VALIDATION', 'Body must be UTF-8: it holds bytes that are not.');
      if (buf.includes('\\u') && SURROGATE_ESCAPE.test(buf.toString('latin1'))) escapesSurrogates.add(req);
    },
  });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err || !escapesSurrogates.has(req)) return next(err);
      const where = loneSurrogateAt(req.body, '');
      if (where === null) return next();
      next(
        new ApiError(
          'VALIDATION',
          `${where || 'body'}: text must be Unicode characters; it holds a lone surrogate (an escape such as \\ud800 alone).`,
        ),
      );
    });
}

/** A JSON escape of a surrogate half (`\ud800`…`\udfff`). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A surrogate half without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Where in a parsed JSON value a string (or a key) holds a lone surrogate (`name`, `items[2]`), or
 * null. Walked without recursion: a body nested 100,000 deep is walked, not a stack overflow.
 */
export function loneSurrogateAt(value: unknown, path: string): string | null {
  // Each entry: a value, the entry it is inside, and its key or index there.
  const nodes: { value: unknown; parent: number; step: string }[] = [{ value, parent: -1, step: path }];
  const pathOf = (i: number, last?: string): string => {
    const steps: string[] = last === undefined ? [] : [last];
    for (let at = i; at >= 0; at = nodes[at]!.parent) steps.push(nodes[at]!.step);
    return steps.reverse().join('').replace(/^\./, '');
  };
  const todo = [0];
  while (todo.length > 0) {
    const i = todo.pop()!;
    const v = nodes[i]!.value;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return pathOf(i);
    } else if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--) todo.push(nodes.push({ value: v[k], parent: i, step: `[${k}]` }) - 1);
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      for (const [k] of entries) if (LONE_SURROGATE.test(k)) return pathOf(i, `.${k}`);
      for (let k = entries.length - 1; k >= 0; k--)
        todo.push(nodes.push({ value: entries[k]![1], parent: i, step: `.${entries[k]![0]}` }) - 1);
    }
  }
  return null;
}

/** Adds the final plain-text 404 and the one error middleware that writes the contract's envelope. */
export function finishApp(app: Express, logger: Logger): Express {
  app.use((_req: Request, res: Response) => writeNotFound(res));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) =>
    writeError(res, err, logger, res.locals.reqId as string | undefined),
  );
  return app;
}

/**
 * A service run as a node:cluster: each worker offers its registry to the primary, and the
 * primary's /metrics sums them (prom-client's AggregatorRegistry; counters and histograms add up,
 * default process metrics are per-process sums).
 */
export function offerMetricsToPrimary(name: string): void {
  client.AggregatorRegistry.setRegistries([metricsFor(name).registry]);
  // prom-client answers the primary's requests only once an AggregatorRegistry exists in the worker.
  new client.AggregatorRegistry();
}

/** The primary's side of offerMetricsToPrimary: the workers' metrics, summed, as Prometheus text. */
export function clusterMetrics(): { contentType: string; collect: () => Promise<string> } {
  const aggregator = new client.AggregatorRegistry();
  return { contentType: aggregator.contentType, collect: () => aggregator.clusterMetrics() };
}
