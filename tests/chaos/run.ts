/**
 * `pnpm chaos`: the long fault run, printing its counts. Options by environment: CHAOS_SEED,
 * CHAOS_MEETINGS (default 120), CHAOS_ASKS (default 6), CHAOS_PORT (first of 12 free ports, default
 * 19100), CHAOS_POSTGRES=0 not to restart the run's own Postgres (restarted once by default).
 */
import { runChaos } from './chaos';

async function main() {
  const seed = Number(process.env.CHAOS_SEED ?? Date.now() % 100_000);
  const report = await runChaos({
    seed,
    meetings: Number(process.env.CHAOS_MEETINGS ?? 120),
    asks: Number(process.env.CHAOS_ASKS ?? 6),
    restartPostgres: process.env.CHAOS_POSTGRES !== '0',
    basePort: Number(process.env.CHAOS_PORT ?? 19100),
    logDir: `/tmp/mm-chaos-${seed}`,
    settleSeconds: 300,
    log: (m) => process.stdout.write(`chaos: ${m}\n`),
  });
  const { violations, faults, ...counts } = report;
  process.stdout.write(`chaos seed ${seed}\nfaults: ${faults.join(', ')}\n`);
  for (const [k, v] of Object.entries(counts)) process.stdout.write(`  ${k.padEnd(12)} ${v}\n`);
  process.stdout.write(
    violations.length
      ? `VIOLATIONS (${violations.length}):\n${violations.map((v) => `  ${v}`).join('\n')}\n`
      : 'no violations: no stuck meeting, no lost, doubled or wrong amount, every event once and in order\n',
  );
  process.exit(violations.length ? 1 : 0);
}

void main().catch((err: unknown) => {
  process.stderr.write(`chaos failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(2);
});
