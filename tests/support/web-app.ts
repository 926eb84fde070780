/**
 * The app (services/web) is its own TypeScript project (services/web/tsconfig.json: JSX, and the
 * DOM's types that preact's JSX declarations bring). The test stack starts it through this seam,
 * loaded at run time, so the rest of the tree compiles without the DOM; the app's project checks
 * that its startWeb still fits (services/web/test/start-seam.ts).
 */
import type { Running } from '@mm/http';
import type { WebConfig } from '../../services/web/src/config';

export type StartWeb = (config: WebConfig) => Promise<Running>;

/** Starts the app as its main.ts does, in this process. */
export function startWeb(config: WebConfig): Promise<Running> {
  const app: { startWeb: StartWeb } = require('../../services/web/src/main');
  return app.startWeb(config);
}
