/**
 * Runs wrk (the real load generator, /usr/bin/wrk) and reads its report: requests/sec and the
 * latency distribution from the `--latency` text, error counters from both the text
 * ("Non-2xx or 3xx responses", "Socket errors") and an exact summary line printed by
 * wrk-summary.lua.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BenchError } from './types';

export interface WrkRun {
  url: string;
  headers?: Record<string, string>;
  threads: number;
  connections: number;
  durationSeconds: number;
  /** Per-request timeout; a slower response counts as a timeout error. */
  timeoutSeconds?: number;
  /** Where the raw output is kept (optional). */
  rawFile?: string;
  /** Called with wrk's pid once it runs (to sample its CPU use). */
  onSpawn?: (pid: number) => void;
  /**
   * One header whose value changes with every request, round robin over `values` (e.g. 1,000
   * tokens). The requests are built once per thread, so wrk still does no work per request
   * beyond picking the next one.
   */
  rotateHeader?: { name: string; values: string[] };
  /**
   * Whole requests in rotation, round robin: a path (with its query) and headers each, e.g. one
   * per token, each naming its own account's resources. Built once per thread like rotateHeader.
   */
  rotateRequests?: RotatedRequest[];
  /**
   * Each connection waits this long after an answer before its next request (wrk's `delay()`),
   * so a run can be held near a given rate: connections / (latency + delay).
   */
  delayMs?: number;
}

export interface RotatedRequest {
  path: string;
  headers: Record<string, string>;
  /** GET when absent. */
  method?: string;
  /** Sent as is (any bytes); wrk adds its Content-Length. Requests sharing one body share one Lua string. */
  body?: Buffer;
}

/** `bytes` as a Lua string literal: printable ASCII as is, every other byte (and `"`, `\\`) as a three-digit decimal escape (a digit after it stays a digit). */
export function luaString(bytes: Buffer): string {
  let out = '"';
  for (const b of bytes)
    out +=
      b >= 0x20 && b <= 0x7e && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`;
  return `${out}"`;
}

/**
 * wrk-summary.lua plus a request() that cycles through pre-built requests: each a path (null: the
 * URL's), headers over wrk's own, and optionally a method and a body (bodies deduplicated). Built
 * once per thread in init(), so wrk does no work per request.
 */
function rotationLua(
  specs: Array<{ path: string | null; headers: Record<string, string>; method?: string; body?: Buffer }>,
): string {
  const lua = (v: string) => JSON.stringify(v); // a JSON string of printable ASCII is a Lua string
  const all = specs.flatMap((r) => [r.path ?? '', r.method ?? '', ...Object.entries(r.headers).flat()]);
  if (all.some((v) => !/^[\x20-\x7e]*$/.test(v)))
    throw new BenchError('rotated paths, methods and header values must be printable ASCII');
  const bodies: Buffer[] = [];
  const bodyIndex = (b: Buffer | undefined): string => {
    if (!b) return 'nil';
    let i = bodies.findIndex((x) => x === b || x.equals(b));
    if (i < 0) i = bodies.push(b) - 1;
    return `bodies[${i + 1}]`;
  };
  const table = specs
    .map(
      (r) =>
        `{ ${r.path === null ? 'nil' : lua(r.path)}, { ${Object.entries(r.headers)
          .map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
          .join(', ')} }, ${r.method ? lua(r.method.toUpperCase()) : 'nil'}, ${bodyIndex(r.body)} }`,
    )
    .join(',\n  ');
  return `${readFileSync(path.join(__dirname, 'wrk-summary.lua'), 'utf8')}
local bodies = {
  ${bodies.map(luaString).join(',\n  ')}
}
local specs = {
  ${table}
}
local requests = {}
local next_request = 0
init = function(args)
  for i, spec in ipairs(specs) do
    local headers = {}
    for k, h in pairs(wrk.headers) do headers[k] = h end
    for k, h in pairs(spec[2]) do headers[k] = h end
    requests[i] = wrk.format(spec[3], spec[1], headers, spec[4])
  end
  next_request = math.random(#requests) - 1
end
request = function()
  next_request = next_request % #requests + 1
  return requests[next_request]
end
`;
}

function rotationScript(run: WrkRun): string | null {
  const h = run.rotateHeader;
  const rotation = run.rotateRequests
    ? rotationLua(run.rotateRequests)
    : h
      ? rotationLua(h.values.map((v) => ({ path: null, headers: { [h.name]: v } })))
      : null;
  if (run.delayMs === undefined) return rotation;
  if (!(run.delayMs >= 0)) throw new BenchError(`a wrk delay must be 0 ms or more, not ${run.delayMs}`);
  const base = rotation ?? readFileSync(path.join(__dirname, 'wrk-summary.lua'), 'utf8');
  return `${base}\ndelay = function() return ${Math.round(run.delayMs)} end\n`;
}

export interface WrkExact {
  requests: number;
  durationUs: number;
  bytes: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: {
    min: number;
    mean: number;
    max: number;
    p50: number;
    p75: number;
    p90: number;
    p99: number;
    p999: number;
  };
}

export interface WrkResult {
  requests: number;
  durationSeconds: number;
  requestsPerSec: number;
  latencyMs: { avg: number; max: number; p50: number; p75: number; p90: number; p99: number };
  /** Responses with status >= 400 ("Non-2xx or 3xx responses"; 0 when wrk prints no such line). */
  non2xx: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  /** From wrk-summary.lua, when the line was printed. */
  exact: WrkExact | null;
  raw: string;
}

const TIME_UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function toMs(value: string, unit: string): number {
  const scale = TIME_UNITS_MS[unit];
  if (scale === undefined) throw new BenchError(`wrk printed an unknown time unit ${JSON.stringify(unit)}`);
  return Number(value) * scale;
}

/** Parses wrk 4.x output (run with --latency). Throws when a figure the bench needs is missing. */
export function parseWrkOutput(raw: string): WrkResult {
  const need = (re: RegExp, what: string): RegExpExecArray => {
    const m = re.exec(raw);
    if (!m) throw new BenchError(`wrk output has no ${what}:\n${raw}`);
    return m;
  };
  const pct = (p: string) => {
    const m = need(
      new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$`, 'm'),
      `${p}% latency (was --latency passed?)`,
    );
    return toMs(m[1], m[2]);
  };
  const lat = need(/^\s+Latency\s+([\d.]+)(us|ms|s|m|h)\s+[\d.]+\w+\s+([\d.]+)(us|ms|s|m|h)/m, 'Latency line');
  const total = need(/^\s*(\d+) requests in ([\d.]+)(us|ms|s|m|h)/m, 'request count');
  const rps = need(/^Requests\/sec:\s+([\d.]+)/m, 'Requests/sec');
  const non2xx = /^\s*Non-2xx or 3xx responses:\s+(\d+)/m.exec(raw);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(raw);
  const json = /^WRK_JSON (\{.*\})\s*$/m.exec(raw);
  return {
    requests: Number(total[1]),
    durationSeconds: toMs(total[2], total[3]) / 1000,
    requestsPerSec: Number(rps[1]),
    latencyMs: {
      avg: toMs(lat[1], lat[2]),
      max: toMs(lat[3], lat[4]),
      p50: pct('50'),
      p75: pct('75'),
      p90: pct('90'),
      p99: pct('99'),
    },
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: sock
      ? { connect: Number(sock[1]), read: Number(sock[2]), write: Number(sock[3]), timeout: Number(sock[4]) }
      : { connect: 0, read: 0, write: 0, timeout: 0 },
    exact: json ? (JSON.parse(json[1]) as WrkExact) : null,
    raw,
  };
}

/** Every reason the run's numbers cannot be trusted (error responses, socket errors, no requests). */
export function wrkProblems(r: WrkResult): string[] {
  const problems: string[] = [];
  const status = Math.max(r.non2xx, r.exact?.errors.status ?? 0);
  if (status > 0) problems.push(`${status} responses were errors (status >= 400)`);
  const s = r.exact?.errors ?? { ...r.socketErrors, status: 0 };
  const sock = {
    connect: Math.max(s.connect, r.socketErrors.connect),
    read: Math.max(s.read, r.socketErrors.read),
    write: Math.max(s.write, r.socketErrors.write),
    timeout: Math.max(s.timeout, r.socketErrors.timeout),
  };
  if (sock.connect + sock.read + sock.write + sock.timeout > 0)
    problems.push(
      `socket errors: connect ${sock.connect}, read ${sock.read}, write ${sock.write}, timeout ${sock.timeout}`,
    );
  if (r.requests === 0) problems.push('no request completed');
  return problems;
}

/** The generated script holds credentials: a private directory of its own, mode 0600. */
function writeTempScript(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'mm-wrk-')), 'rotate.lua');
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

const running = new Set<ChildProcess>();

/** Stops wrk runs in progress (Ctrl-C). */
export function killRunningWrk(): void {
  for (const c of running) c.kill('SIGKILL');
}

export const WRK_BIN = process.env.WRK ?? 'wrk';

/** Runs wrk once and returns its parsed report; throws on a failed run, never on error responses (see wrkProblems). */
export async function runWrk(run: WrkRun): Promise<WrkResult> {
  const text = rotationScript(run);
  const script = text ? writeTempScript(text) : null;
  try {
    return await runWrkWith(run, script);
  } finally {
    if (script) rmSync(path.dirname(script), { recursive: true, force: true });
  }
}

async function runWrkWith(run: WrkRun, script: string | null): Promise<WrkResult> {
  const args = [
    `-t${run.threads}`,
    `-c${run.connections}`,
    `-d${run.durationSeconds}s`,
    `--timeout`,
    `${run.timeoutSeconds ?? 5}s`,
    '--latency',
    '-s',
    script ?? path.join(__dirname, 'wrk-summary.lua'),
  ];
  for (const [k, v] of Object.entries(run.headers ?? {})) args.push('-H', `${k}: ${v}`);
  args.push(run.url);
  const child = spawn(WRK_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  if (child.pid) run.onSpawn?.(child.pid);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | string>((resolve, reject) => {
    child.once('error', (e) =>
      reject(new BenchError(`could not run ${WRK_BIN}: ${e.message} (install wrk, or set WRK=/path/to/wrk)`)),
    );
    child.once('exit', (c, sig) => resolve(sig ?? c ?? 0));
  }).finally(() => running.delete(child));
  if (run.rawFile)
    writeFileSync(
      run.rawFile,
      `$ wrk ${args.map((a) => (a.startsWith('Authorization') || a.startsWith('x-mm-principal') ? `${a.split(':')[0]}: [redacted]` : a)).join(' ')}\n${out}${err}`,
    );
  if (code !== 0) throw new BenchError(`wrk exited with ${code}:\n${err || out}`);
  return parseWrkOutput(out);
}
