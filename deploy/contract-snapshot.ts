/**
 * `pnpm contract:snapshot`: compares the contract the code generates now with the committed
 * snapshots (libs/contract/snapshots/), prints what would break a consumer, and refuses (exit 1)
 * if anything would; otherwise rewrites the snapshots. There is no override: a breaking change
 * goes in a new version kept beside the old one (docs/decisions.md, "Versions and compatibility").
 */
import path from 'node:path';
import { contractBreaks } from '../libs/contract/src/compat';
import { currentSnapshots, readSnapshots, writeSnapshots } from '../libs/contract/src/snapshots';

const current = currentSnapshots();
const report = contractBreaks(readSnapshots(), current);
for (const note of report.notes) console.log(`note: ${note}`);
if (report.breaks.length > 0) {
  console.error(`Refused: ${report.breaks.length} change(s) would break a consumer of the committed snapshots:`);
  for (const b of report.breaks) console.error(`  - ${b}`);
  console.error('Keep the old shape and add the change as a new version beside it (docs/decisions.md).');
  process.exit(1);
}
for (const file of writeSnapshots(current)) console.log(`wrote ${path.relative(process.cwd(), file)}`);
