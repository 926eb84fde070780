/**
 * How quickly `mm` starts: `node services/cli/bin/mm.js --version`, run from the compiled bundle
 * (built first with `pnpm --filter @mm/cli build`), many times in a row, one at a time. The target
 * (issue 32): the median under 300 ms on the 2-core machine. No service is needed.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadAverage } from '../lib/proc';
import { fmt } from '../lib/report';
import { BenchError, type BenchCase, type CaseContext, type CaseReport } from '../lib/types';

export const CLI_START_TARGET_MS = 300;
const RUNS = 30;

export const cliStartCase: BenchCase = {
  name: 'cli-start',
  description: '`mm --version` from the compiled bundle: median and p90 wall time of a start',
  implemented: true,
  services: [],
  async run(ctx: CaseContext): Promise<CaseReport> {
    const cli = path.join(ctx.opts.root, 'services', 'cli');
    execFileSync('pnpm', ['-C', cli, 'build'], { stdio: 'ignore' });
    const bin = path.join(cli, 'bin', 'mm.js');
    const times: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      ctx.checkAborted();
      const started = process.hrtime.bigint();
      const out = execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (!/^\d+\.\d+\.\d+\n$/.test(out)) throw new BenchError(`mm --version printed ${JSON.stringify(out)}`);
      if (i >= 3) times.push(ms); // the first starts warm the file cache
    }
    const bare: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = process.hrtime.bigint();
      execFileSync(process.execPath, ['-e', '0']);
      bare.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const at = (xs: number[], q: number) =>
      [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
    const median = at(times, 0.5);
    return {
      tables: [
        {
          title: `mm --version, ${RUNS} starts`,
          table: {
            headers: ['what', 'median ms', 'p90 ms', 'max ms'],
            rows: [
              ['mm --version', fmt.ms(median), fmt.ms(at(times, 0.9)), fmt.ms(Math.max(...times))],
              ['node -e 0 (floor)', fmt.ms(at(bare, 0.5)), fmt.ms(at(bare, 0.9)), fmt.ms(Math.max(...bare))],
            ],
          },
        },
      ],
      lines: [`load average ${loadAverage()}`],
      targets: [
        {
          label: `median start < ${CLI_START_TARGET_MS} ms`,
          pass: median < CLI_START_TARGET_MS,
          measured: `${fmt.ms(median)} ms`,
        },
      ],
      data: { times, bare },
      summary: `mm --version median ${fmt.ms(median)} ms (node alone ${fmt.ms(at(bare, 0.5))} ms)`,
    };
  },
};
