/**
 * EXTENSION POINT — pipeline real-time factor (not written yet).
 *
 * What it should measure: processing time / audio duration for a meeting recording of known
 * length, end to end (submit through the gateway → transcript + digest ready), and per stage if
 * the pipeline exposes stage timings. RTF < 1 means faster than real time.
 *
 * How to fill it in:
 * - set `implemented: true` and list the services the pipeline needs in `services`
 *   (dependencies first, gateway last), plus any engine configuration in `env`;
 * - create an account and token with lib/admin.ts (scopes to submit and read recordings);
 * - generate or pick fixture audio (tests/support/speak-meeting.ts makes spoken meetings);
 * - submit, poll (or follow /events) until ready, time it; repeat a few times and report the
 *   median and worst RTF in a table, with a TargetCheck for the agreed target;
 * - CPU use of the services over the run: CpuSampler / defaultCpuGroups in lib/.
 */
import { BenchError, type BenchCase } from '../lib/types';

export const pipelineRtfCase: BenchCase = {
  name: 'pipeline-rtf',
  description: 'pipeline real-time factor: processing time / audio duration, end to end (TODO)',
  implemented: false,
  services: ['account', 'recordings', 'pipeline', 'gateway'],
  async run() {
    throw new BenchError('pipeline-rtf is declared but not written yet (tests/bench/cases/pipeline-rtf.ts)');
  },
};
