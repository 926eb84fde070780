import { nextRestartDelayMs, RESTART_DELAY } from '../src/domain/worker-restarts';

describe('nextRestartDelayMs', () => {
  it('restarts at once after a worker that ran for a while', () => {
    expect(nextRestartDelayMs(0)).toBe(RESTART_DELAY.afterLongRunMs);
  });

  it('doubles from one second for each quick death in a row', () => {
    expect([1, 2, 3, 4].map(nextRestartDelayMs)).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never waits longer than 30 s', () => {
    expect(nextRestartDelayMs(6)).toBe(30_000);
    expect(nextRestartDelayMs(50)).toBe(30_000);
  });
});
