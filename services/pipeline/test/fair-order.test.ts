import { fairStartOrder, nextFairJob, type AccountUse } from '../src/domain/fair-order';
import { FairGate, GateClosedError } from '../src/services/fair-gate';

const use = (entries: Array<[string, number, number | null]>) =>
  new Map<string, AccountUse>(entries.map(([a, running, lastStart]) => [a, { running, lastStart }]));

describe('nextFairJob', () => {
  it('returns -1 when nothing waits', () => {
    expect(nextFairJob([], new Map())).toBe(-1);
  });

  it('prefers the account with fewer transcriptions running over an older job', () => {
    const waiting = [
      { account: 'a', seq: 1 },
      { account: 'b', seq: 2 },
    ];
    expect(nextFairJob(waiting, use([['a', 1, 0]]))).toBe(1);
  });

  it('between accounts running as many, prefers the one served longest ago, a never-served one first', () => {
    const waiting = [
      { account: 'a', seq: 1 },
      { account: 'b', seq: 2 },
      { account: 'c', seq: 3 },
    ];
    expect(
      nextFairJob(
        waiting,
        use([
          ['a', 0, 5],
          ['b', 0, 3],
        ]),
      ),
    ).toBe(2);
    expect(
      nextFairJob(
        waiting,
        use([
          ['a', 0, 5],
          ['b', 0, 3],
          ['c', 0, 4],
        ]),
      ),
    ).toBe(1);
  });

  it('keeps an account’s own jobs in arrival order', () => {
    const waiting = [
      { account: 'a', seq: 7 },
      { account: 'a', seq: 4 },
    ];
    expect(nextFairJob(waiting, new Map())).toBe(1);
  });
});

describe('fairStartOrder', () => {
  // Accounts A, B, C submit four meetings each, A's four first: FIFO would start A's four first.
  const burst = ['A', 'A', 'A', 'A', 'B', 'B', 'B', 'B', 'C', 'C', 'C', 'C'];

  it('starts every account’s first meeting before any account’s last one, on two slots', () => {
    const order = fairStartOrder(burst, 2).map((i) => burst[i]);
    expect(order.join('')).toBe('ABCABCABCABC');
  });

  it('on one slot, takes the accounts in turn', () => {
    expect(
      fairStartOrder(burst, 1)
        .map((i) => burst[i])
        .join(''),
    ).toBe('ABCABCABCABC');
  });

  it('gives a late single meeting the next free slot ahead of a backlog', () => {
    const accounts = ['A', 'A', 'A', 'A', 'A', 'B'];
    const order = fairStartOrder(accounts, 2).map((i) => accounts[i]);
    expect(order.indexOf('B')).toBe(1);
  });
});

describe('FairGate', () => {
  const tick = () => new Promise((r) => setImmediate(r));

  it('runs at most its slots at once and starts the waiting job of the least-served account next', async () => {
    const gate = new FairGate(2);
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    let peak = 0;
    const job = (account: string, name: string) =>
      gate.run(account, async () => {
        started.push(name);
        peak = Math.max(peak, gate.depth.running);
        await new Promise<void>((r) => finish.set(name, r));
        return name;
      });
    const all = [job('a', 'a1'), job('a', 'a2'), job('a', 'a3'), job('b', 'b1'), job('c', 'c1')];
    await tick();
    expect(started).toEqual(['a1', 'a2']);
    expect(gate.depth).toEqual({ waiting: 3, running: 2 });
    finish.get('a1')!();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    finish.get('a2')!();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1']);
    finish.get('b1')!();
    finish.get('c1')!();
    await tick();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1', 'a3']);
    finish.get('a3')!();
    await expect(Promise.all(all)).resolves.toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);
    expect(peak).toBe(2);
    expect(gate.depth).toEqual({ waiting: 0, running: 0 });
  });

  it('frees the slot when a task throws', async () => {
    const gate = new FairGate(1);
    await expect(gate.run('a', async () => Promise.reject(new Error('engine failed')))).rejects.toThrow(
      'engine failed',
    );
    await expect(gate.run('a', async () => 'next')).resolves.toBe('next');
    expect(gate.depth).toEqual({ waiting: 0, running: 0 });
  });

  it('on close, refuses the waiting tasks and later ones while the running one finishes', async () => {
    const gate = new FairGate(1);
    let finishRunning!: () => void;
    const running = gate.run('a', () => new Promise<string>((r) => (finishRunning = () => r('done'))));
    const waiting = gate.run('b', async () => 'never');
    await tick();
    gate.close();
    await expect(waiting).rejects.toBeInstanceOf(GateClosedError);
    await expect(gate.run('c', async () => 'never')).rejects.toBeInstanceOf(GateClosedError);
    finishRunning();
    await expect(running).resolves.toBe('done');
    expect(gate.depth).toEqual({ waiting: 0, running: 0 });
  });
});
