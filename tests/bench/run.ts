/**
 * `pnpm bench`: starts its own stack as real processes, runs the bench cases (cases/index.ts),
 * prints a table per case and a PASS/FAIL line per target, and stops every process it started,
 * on success, on error and on Ctrl-C. `pnpm bench --help` for the options.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { overLocalSocket } from '@mm/db';
import { CASES } from './cases';
import { parseBenchArgs, USAGE } from './lib/options';
import { cpuCount, loadAverage } from './lib/proc';
import { formatTable, formatTarget } from './lib/report';
import { benchEnv, codeOf, natsUrlOf, portOf, redisUrlOf, Stack } from './lib/stack';
import { BenchError, type BenchCase, type BenchOptions, type CaseReport, type ServiceName } from './lib/types';
import { killRunningWrk, WRK_BIN } from './lib/wrk';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

class Interrupted extends Error {}

let activeStack: Stack | null = null;
/** The running case's scratch directory (generated audio, audio store), removed when the case ends. */
let activeScratch: string | null = null;
let interrupted = false;

function removeScratch(): void {
  if (!activeScratch) return;
  try {
    rmSync(activeScratch, { recursive: true, force: true });
  } catch (err) {
    log(`could not remove ${activeScratch}: ${(err as Error).message}`);
  }
  activeScratch = null;
}

function onSignal(signal: NodeJS.Signals): void {
  if (interrupted) {
    // Second Ctrl-C: no more grace.
    activeStack?.killNow();
    process.exit(130);
  }
  interrupted = true;
  log(`${signal}: stopping wrk and the services (Ctrl-C again to kill at once)`);
  killRunningWrk();
  void (activeStack?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
}

function describeEnvironment(root: string): string {
  const tryRun = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    } catch (err) {
      return (err as { stdout?: string }).stdout?.trim() || '?';
    }
  };
  const commit = tryRun('git', ['-C', root, 'rev-parse', '--short', 'HEAD']);
  const dirty = tryRun('git', ['-C', root, 'status', '--porcelain']) ? ' (uncommitted changes)' : '';
  const wrk = tryRun(WRK_BIN, ['--version'])
    .split('\n')[0]
    .replace(/\s+Copyright.*/, '');
  return `root ${root} at ${commit}${dirty}; node ${process.version}; ${wrk}; ${cpuCount()} cores; load average ${loadAverage().toFixed(2)}`;
}

async function runCase(c: BenchCase, opts: ReturnType<typeof parseBenchArgs>['opts']): Promise<CaseReport> {
  const scratchDir = mkdtempSync(path.join(os.tmpdir(), `mm-bench-${c.name}-`));
  activeScratch = scratchDir;
  let stack: Stack | null = null;
  try {
    const caseEnv = typeof c.env === 'function' ? await c.env(scratchDir) : c.env;
    stack = new Stack(opts, benchEnv(opts, caseEnv));
    activeStack = stack;
    log(`case ${c.name}: starting ${c.services.join(', ')}`);
    await stack.start(c.services, log);
    return await c.run({
      opts,
      stack,
      log: (m) => log(`${c.name}: ${m}`),
      checkAborted: () => {
        if (interrupted) throw new Interrupted();
      },
      scratchDir,
    });
  } finally {
    await stack?.stop();
    activeStack = null;
    await c.teardown?.();
    removeScratch();
    log(`case ${c.name}: services stopped`);
  }
}

/**
 * Compiles the services as the images do (deploy/build.sh of the checkout measured, packages from
 * the local store) into `<log-dir>/build`; returns that directory, or 'failed' (said why).
 */
function buildServices(opts: BenchOptions, services: ServiceName[]): string | 'failed' {
  const dir = path.join(opts.logDir, 'build');
  const started = performance.now();
  log(
    `building ${services.join(', ')} as the images run them (deploy/build.sh ${dir}; --compiled DIR or --tsx skips this)`,
  );
  const run = spawnSync('bash', [path.join(opts.root, 'deploy', 'build.sh'), dir, ...services], {
    cwd: opts.root,
    env: { ...process.env, PNPM_FLAGS: process.env.PNPM_FLAGS ?? '--prefer-offline' },
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (run.status !== 0) {
    log(`the build failed (${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr || run.stdout).trim()}`);
    return 'failed';
  }
  log(
    `built in ${((performance.now() - started) / 1000).toFixed(0)} s: those cases run node ${dir}/<service>/src/main.js`,
  );
  return dir;
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseBenchArgs>;
  try {
    parsed = parseBenchArgs(process.argv.slice(2), REPO_ROOT);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { opts, only, list, help } = parsed;
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (list) {
    for (const c of CASES)
      process.stdout.write(`${c.name.padEnd(16)} ${c.implemented ? '' : '[not written yet] '}${c.description}\n`);
    return 0;
  }
  const unknown = (only ?? []).filter((n) => !CASES.some((c) => c.name === n));
  if (unknown.length) {
    process.stderr.write(`unknown case(s): ${unknown.join(', ')}; known: ${CASES.map((c) => c.name).join(', ')}\n`);
    return 2;
  }
  const selected = CASES.filter((c) => (only ? only.includes(c.name) : true));
  for (const c of selected.filter((x) => !x.implemented))
    log(`case ${c.name}: not written yet, skipped (${c.description})`);
  const runnable = selected.filter((c) => c.implemented);
  if (!runnable.length) {
    log('nothing to run');
    return only ? 2 : 0;
  }

  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => {
    activeStack?.killNow();
    removeScratch();
  });

  const environment = describeEnvironment(opts.root);
  log(environment);
  if (opts.hops === 'local' && !opts.databaseUrlGiven) opts.databaseUrl = await overLocalSocket(opts.databaseUrl);
  log(
    `hops: ${opts.hops === 'local' ? 'local (as pnpm start: gateway to services over Unix sockets' : 'tcp (as between pods: gateway to services over TCP'}, Postgres ${new URL(opts.databaseUrl).searchParams.get('host') ? 'over its Unix socket' : 'over TCP'})`,
  );
  log(
    `stack: gateway :${portOf(opts, 'gateway')}, account :${portOf(opts, 'account')}, database ${opts.databaseUrl}, ` +
      `nats ${natsUrlOf(opts)}${opts.natsUrl ? '' : ' (private)'}, redis ${redisUrlOf(opts)}${opts.redisUrl ? '' : ' (private)'}; logs ${opts.logDir}`,
  );
  // The cases measured as the images run (routes, mixed) get a build of their own unless one was named.
  const compiledCases = runnable.filter((c) => c.compiledByDefault && !opts.compiled && !opts.tsx);
  const build = compiledCases.length
    ? buildServices(opts, [...new Set(compiledCases.flatMap((c) => c.services))])
    : null;
  if (build === 'failed') return 1;
  const results: Array<{
    name: string;
    report?: CaseReport;
    error?: string;
    /** What code the case's stack ran (codeOf). */
    code?: string;
    seconds: number;
    loadBefore: number;
    loadAfter: number;
  }> = [];
  for (const c of runnable) {
    const started = performance.now();
    const loadBefore = loadAverage();
    const done = () => ({ seconds: (performance.now() - started) / 1000, loadBefore, loadAfter: loadAverage() });
    try {
      const caseOpts = build && compiledCases.includes(c) ? { ...opts, compiled: build } : opts;
      const report = await runCase(c, caseOpts);
      if (interrupted) return 130;
      results.push({ name: c.name, report, code: codeOf(caseOpts), ...done() });
    } catch (err) {
      if (interrupted || err instanceof Interrupted) return 130;
      const message =
        err instanceof BenchError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
      log(`case ${c.name} FAILED: ${message}`);
      results.push({ name: c.name, error: message, ...done() });
    }
  }

  const out: string[] = ['', `Meeting Memory bench — ${environment}`, ''];
  for (const r of results) {
    if (r.error) {
      out.push(`## ${r.name}: BENCH FAILED — ${r.error}`, '');
      continue;
    }
    for (const t of r.report!.tables) out.push(`## ${t.title}`, '', formatTable(t.table), '');
    out.push(...r.report!.lines, '');
    out.push(...r.report!.targets.map(formatTarget), '');
  }
  // The summary: one row per case, whatever happened to it, its headline numbers, every target again.
  const verdict = (r: (typeof results)[number]) =>
    r.error ? 'BENCH FAILED' : r.report!.targets.every((t) => t.pass) ? 'PASS' : 'FAIL';
  out.push(
    '## Summary',
    '',
    formatTable({
      headers: ['case', 'result', 'seconds', 'load average before', 'after'],
      rows: results.map((r) => [
        r.name,
        verdict(r),
        r.seconds.toFixed(0),
        r.loadBefore.toFixed(2),
        r.loadAfter.toFixed(2),
      ]),
    }),
    '',
    ...results.map(
      (r) =>
        `${r.name}: ${r.error ? `BENCH FAILED — ${r.error.split('\n')[0]}` : (r.report!.summary ?? r.report!.targets.map((t) => t.measured).join('; '))}`,
    ),
    '',
    ...results.flatMap((r) => (r.report ? r.report.targets.map((t) => `${r.name}: ${formatTarget(t)}`) : [])),
    '',
  );
  process.stdout.write(`${out.join('\n')}\n`);
  writeFileSync(
    path.join(opts.logDir, 'results.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        environment,
        opts: { ...opts },
        results: results.map((r) => ({ ...r, report: r.report && { ...r.report } })),
      },
      null,
      2,
    ),
  );
  log(`raw wrk output, service logs and results.json in ${opts.logDir}`);

  if (results.some((r) => r.error)) return 1;
  if (results.some((r) => r.report!.targets.some((t) => !t.pass))) return 3;
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(`crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
