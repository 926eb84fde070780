/**
 * EXTENSION POINT — upload memory (not written yet).
 *
 * What it should measure: the peak resident memory of the gateway and of the recordings service
 * while a large recording (for instance MAX_UPLOAD_MB-sized) is uploaded through the gateway,
 * alone and with a few uploads in parallel. Uploads must stream (services/gateway/src/services/
 * proxy.ts never holds a body whole), so the peak should stay near the baseline whatever the size.
 *
 * How to fill it in:
 * - set `implemented: true`; `services` below are the ones an upload touches;
 * - create an account and token with lib/admin.ts (a scope that may submit recordings);
 * - for each service: `new RssSampler(ctx.stack.servicePid('gateway')!)` (lib/proc.ts) — start()
 *   before the upload, stop() after it — and stream a generated body (no file held in memory by
 *   the bench either);
 * - report baseline / peak / peak − baseline per service and size in a table, with a TargetCheck
 *   such as "peak − baseline < N MiB for a 500 MB upload".
 */
import { BenchError, type BenchCase } from '../lib/types';

export const uploadMemoryCase: BenchCase = {
  name: 'upload-memory',
  description: 'peak RSS of gateway and recordings while large uploads stream through (TODO)',
  implemented: false,
  services: ['account', 'recordings', 'gateway'],
  async run() {
    throw new BenchError('upload-memory is declared but not written yet (tests/bench/cases/upload-memory.ts)');
  },
};
