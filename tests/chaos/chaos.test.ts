import { runChaos } from './chaos';

/**
 * The short fault run in `pnpm test` (the long one is `pnpm chaos`): 50 one-second meetings (45 silent, 5 spoken) and
 * a few Asks while each service is SIGKILLed and restarted in turn, then the run's own NATS and its own
 * Postgres once each. Seeded: CHAOS_SEED repeats it.
 */
describe('faults during work', () => {
  it('lose no meeting and no money, and double nothing', async () => {
    const seed = Number(process.env.CHAOS_SEED ?? 11);
    const report = await runChaos({
      seed,
      meetings: 50,
      asks: 2,
      restartPostgres: true,
      basePort: 19300,
      logDir: `/tmp/mm-chaos-test-${seed}-${process.pid}`,
      settleSeconds: 150,
      log: () => undefined,
    });
    // Any broken promise fails the run: a stuck or lost meeting, doubled money, a meeting charged
    // other than its price or an Ask other than its quote, a balance its ledger does not explain,
    // an event twice, or a meeting's events out of the order they happened.
    expect(report.violations).toEqual([]);
    expect(report.faults).toHaveLength(9);
    expect(report.faults.slice(-2)).toEqual(['restart NATS', 'restart Postgres']);
    expect(report.accepted).toBe(50);
  }, 400_000);
});
