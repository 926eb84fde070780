import { Periodic } from '../src/periodic';

interface Line {
  obj: object;
  msg: string;
}

function logTo(lines: Line[]) {
  return { warn: (obj: object, msg: string) => void lines.push({ obj, msg }) };
}

/** A pass the test finishes by hand. */
function gatedPass() {
  let calls = 0;
  let open: ((n: number) => void) | null = null;
  const pass = () =>
    new Promise<number>((resolve) => {
      calls++;
      open = resolve;
    });
  return { pass, calls: () => calls, finish: (n: number) => open?.(n) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('Periodic', () => {
  it('never runs two passes at once: a second runOnce joins the pass under way', async () => {
    const g = gatedPass();
    const p = new Periodic(g.pass, { everyMs: 60_000, failed: -1, failureMessage: 'x', log: logTo([]) });
    const a = p.runOnce();
    const b = p.runOnce();
    expect(g.calls()).toBe(1);
    g.finish(3);
    await expect(a).resolves.toBe(3);
    await expect(b).resolves.toBe(3);
    const c = p.runOnce();
    expect(g.calls()).toBe(2);
    g.finish(0);
    await expect(c).resolves.toBe(0);
  });

  it('logs a failed pass with its message and answers `failed`; the next pass runs again', async () => {
    const lines: Line[] = [];
    let n = 0;
    const p = new Periodic(
      async () => {
        n++;
        if (n === 1) throw new Error('database went away');
        return 7;
      },
      { everyMs: 60_000, failed: 0, failureMessage: 'sweep failed; next pass will retry', log: logTo(lines) },
    );
    await expect(p.runOnce()).resolves.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0].msg).toBe('sweep failed; next pass will retry');
    expect(String((lines[0].obj as { err: unknown }).err)).toContain('database went away');
    await expect(p.runOnce()).resolves.toBe(7);
  });

  it('runs on its timer, a first pass at start when asked, and stop() waits for the pass under way', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const g = gatedPass();
      const p = new Periodic(g.pass, {
        everyMs: 1000,
        failed: 0,
        failureMessage: 'x',
        log: logTo([]),
        runAtStart: true,
      });
      p.start();
      expect(g.calls()).toBe(1);
      g.finish(1);
      await tick();
      jest.advanceTimersByTime(999);
      expect(g.calls()).toBe(1);
      jest.advanceTimersByTime(1);
      expect(g.calls()).toBe(2);
      // The timer fires while the pass is still running: no second pass.
      jest.advanceTimersByTime(1000);
      expect(g.calls()).toBe(2);

      let stopped = false;
      const stopping = p.stop().then(() => {
        stopped = true;
      });
      expect(p.stopped).toBe(true);
      await tick();
      expect(stopped).toBe(false);
      g.finish(0);
      await stopping;
      expect(stopped).toBe(true);
      jest.advanceTimersByTime(5000);
      expect(g.calls()).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('waits one interval before its first pass unless asked to run at start', () => {
    jest.useFakeTimers();
    try {
      const g = gatedPass();
      const p = new Periodic(g.pass, { everyMs: 1000, failed: 0, failureMessage: 'x', log: logTo([]) });
      p.start();
      p.start();
      expect(g.calls()).toBe(0);
      jest.advanceTimersByTime(1000);
      expect(g.calls()).toBe(1);
      void p.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
