/**
 * Every bench case, in run order. To add one: write `cases/<name>.ts` exporting a BenchCase
 * (lib/types.ts) and list it here; `pnpm bench --only <name>` runs it alone.
 */
import type { BenchCase } from '../lib/types';
import { whoamiCase } from './whoami';
import { pipelineRtfCase } from './pipeline-rtf';
import { uploadMemoryCase, uploadMemoryS3Case } from './upload-memory';
import { submitFloodCase } from './submit-flood';
import { speechCase } from './speech';
import { searchScaleCase } from './search-scale';
import { listScaleCase } from './list-scale';
import { feedScaleCase } from './feed-scale';
import { pipelineThroughputCase } from './pipeline-throughput';
import { pipelineMemoryCase } from './pipeline-memory';
import { uploadSlowCase } from './upload-slow';
import { remoteAsrCase } from './remote-asr';
import { routesCase } from './routes';
import { mixedCase } from './mixed';
import { cliStartCase } from './cli-start';

export const CASES: BenchCase[] = [
  whoamiCase,
  pipelineRtfCase,
  uploadMemoryCase,
  uploadMemoryS3Case,
  submitFloodCase,
  speechCase,
  searchScaleCase,
  listScaleCase,
  feedScaleCase,
  pipelineThroughputCase,
  pipelineMemoryCase,
  uploadSlowCase,
  remoteAsrCase,
  routesCase,
  mixedCase,
  cliStartCase,
];
