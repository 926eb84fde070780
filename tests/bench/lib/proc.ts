/**
 * Small /proc readers (Linux): process trees, CPU time and resident memory. Used to show where
 * the machine's cores go during a run, and by benches that measure memory.
 */
import { readFileSync, readdirSync } from 'node:fs';

const CLK_TCK = 100; // USER_HZ on Linux

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The direct children of a process (all its threads' children). */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tasks) {
    const text = read(`/proc/${pid}/task/${tid}/children`);
    if (text) for (const c of text.trim().split(/\s+/)) if (c) out.push(Number(c));
  }
  return out;
}

/** A process and all its descendants (the tsx wrapper and the node process running the service). */
export function treeOf(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    if (read(`/proc/${p}/stat`) === null) continue;
    out.push(p);
    queue.push(...childrenOf(p));
  }
  return out;
}

/** Every process whose command name (comm) is one of `names` (e.g. postgres, redis-server). */
export function pidsByComm(names: readonly string[]): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = read(`/proc/${entry}/comm`)?.trim();
    if (comm && names.some((n) => comm === n || comm.startsWith(`${n}:`))) out.push(Number(entry));
  }
  return out;
}

/** Postgres backends serving one database (their process title names it: `postgres: … user db host(port) state`). */
export function postgresBackendsOf(database: string): number[] {
  return pidsByComm(['postgres']).filter((pid) => {
    const cmd = read(`/proc/${pid}/cmdline`)?.replace(/\0/g, ' ') ?? '';
    return cmd.includes(` ${database} `);
  });
}

/** User + system CPU seconds a process has used so far (0 when it is gone). */
export function cpuSeconds(pid: number): number {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return 0;
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/**
 * User + system CPU seconds of a process plus those of its children it has waited for (cutime,
 * cstime): for a service that runs engines as short-lived child processes (pocketsphinx, ffmpeg),
 * whose own /proc entries are gone by the time anyone samples them.
 */
export function cpuSecondsWithReapedChildren(pid: number): number {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return 0;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLK_TCK;
}

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  const status = read(`/proc/${pid}/status`);
  const m = status && new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) : null;
}

/** Resident set size of a process in MiB (null when it is gone). */
export function rssMiB(pid: number): number | null {
  const kib = statusKiB(pid, 'VmRSS');
  return kib === null ? null : kib / 1024;
}

/** The process's resident high-water mark since it started (VmHWM), in MiB (null when it is gone). */
export function hwmMiB(pid: number): number | null {
  const kib = statusKiB(pid, 'VmHWM');
  return kib === null ? null : kib / 1024;
}

/** Busy, stolen and total jiffies of the whole machine (all cores), from /proc/stat. */
function machineJiffies(): { busy: number; total: number; steal: number } {
  const line = (read('/proc/stat') ?? '').split('\n')[0];
  // user nice system idle iowait irq softirq steal ...
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const busy = v[0] + v[1] + v[2] + v[5] + v[6];
  return { busy, total, steal: v[7] ?? 0 };
}

export interface CpuGroup {
  label: string;
  /** Pids to count; called at the start and the end of the window (processes may come and go). */
  pids: () => number[];
}

export interface CpuShare {
  label: string;
  /** Percent of one core over the window (200% = both cores of a 2-core machine). */
  percentOfCore: number;
}

/**
 * Measures CPU use per group over a window: start() before the load, stop() after it. Processes
 * that exit inside the window are under-counted; bench processes live through it.
 */
export class CpuSampler {
  private started: { at: number; perPid: Map<number, number>; machine: ReturnType<typeof machineJiffies> } | null =
    null;
  constructor(private readonly groups: CpuGroup[]) {}

  start(): void {
    const perPid = new Map<number, number>();
    for (const g of this.groups) for (const pid of g.pids()) perPid.set(pid, cpuSeconds(pid));
    this.started = { at: performance.now(), perPid, machine: machineJiffies() };
  }

  stop(): { shares: CpuShare[]; machineBusyPercent: number; stealPercent: number; cores: number; wallSeconds: number } {
    if (!this.started) throw new Error('CpuSampler.stop before start');
    const wall = (performance.now() - this.started.at) / 1000;
    const machine = machineJiffies();
    const shares = this.groups.map((g) => {
      let used = 0;
      for (const pid of g.pids()) used += cpuSeconds(pid) - (this.started!.perPid.get(pid) ?? 0);
      return { label: g.label, percentOfCore: (used / wall) * 100 };
    });
    const total = machine.total - this.started.machine.total;
    return {
      shares,
      machineBusyPercent: total > 0 ? ((machine.busy - this.started.machine.busy) / total) * 100 : 0,
      stealPercent: total > 0 ? ((machine.steal - this.started.machine.steal) / total) * 100 : 0,
      cores: cpuCount(),
      wallSeconds: wall,
    };
  }
}

export function cpuCount(): number {
  return (read('/proc/cpuinfo') ?? '').split('\n').filter((l) => l.startsWith('processor')).length || 1;
}

/** The 1-minute load average. */
export function loadAverage(): number {
  return Number((read('/proc/loadavg') ?? '0').split(' ')[0]);
}

/**
 * Samples a process's resident memory at an interval (for memory benches such as uploads):
 * start() records the baseline, stop() returns baseline, peak and last, in MiB.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  private baseline = 0;
  private peak = 0;
  private last = 0;
  private samples = 0;
  constructor(
    private readonly pid: number,
    private readonly intervalMs = 50,
  ) {}

  start(): void {
    this.baseline = this.last = this.peak = rssMiB(this.pid) ?? 0;
    this.samples = 0;
    this.timer = setInterval(() => {
      const v = rssMiB(this.pid);
      if (v === null) return;
      this.samples++;
      this.last = v;
      if (v > this.peak) this.peak = v;
    }, this.intervalMs);
  }

  stop(): { baselineMiB: number; peakMiB: number; lastMiB: number; samples: number } {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return { baselineMiB: this.baseline, peakMiB: this.peak, lastMiB: this.last, samples: this.samples };
  }
}
