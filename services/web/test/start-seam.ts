/** Compiles only while the app's startWeb fits the seam the test stack starts it through (tests/support/web-app.ts). */
import type { StartWeb } from '../../../tests/support/web-app';
import { startWeb } from '../src/main';

export const startWebFitsTheSeam: StartWeb = startWeb;
