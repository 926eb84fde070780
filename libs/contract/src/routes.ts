import type { AppOnlyRouteDef, RouteDef } from './routes.types';
import {
  deleteMemoryItem,
  getAccount,
  getAccountKeyterms,
  listMemory,
  replaceAccountKeyterms,
  updateAccountSettings,
  updateMemoryItem,
  whoami,
} from './routes/account.routes';
import { askRecording, askSeries, quoteRecordingAsk, quoteSeriesAsk } from './routes/ask.routes';
import { listEvents } from './routes/events.routes';
import {
  getRecordingBundle,
  getRecordingStatus,
  listReadyRecordings,
  retryRecording,
  searchRecordings,
  skipRecordingNaming,
  submitRecording,
} from './routes/recordings.routes';
import {
  createSeries,
  getSeries,
  getSeriesKeyterms,
  listReadableSeries,
  replaceSeriesKeyterms,
  updateSeries,
} from './routes/series.routes';

/**
 * THE route table of the public API. The gateway's checks, the services' validators and
 * openapi.json are generated from it. Order follows the contract's endpoint list; each
 * definition lives in `routes/<service>.routes.ts` beside its siblings.
 */
export const ROUTES: readonly RouteDef[] = [
  whoami,
  listReadyRecordings,
  searchRecordings,
  quoteRecordingAsk,
  askRecording,
  getRecordingBundle,
  getRecordingStatus,
  submitRecording,
  skipRecordingNaming,
  retryRecording,
  listEvents,
  listReadableSeries,
  getSeries,
  createSeries,
  updateSeries,
  getSeriesKeyterms,
  replaceSeriesKeyterms,
  quoteSeriesAsk,
  askSeries,
  getAccount,
  getAccountKeyterms,
  replaceAccountKeyterms,
  listMemory,
  updateAccountSettings,
  updateMemoryItem,
  deleteMemoryItem,
];

/** Routes of the web app that no API token may call (answer 401 TOKEN_NOT_ACCEPTED). */
export const APP_ONLY_ROUTES: readonly AppOnlyRouteDef[] = [
  { method: 'delete', path: '/recordings/{id}' },
  { method: 'patch', path: '/recordings/{id}' },
  { method: 'post', path: '/recordings/{id}/restore' },
  { method: 'put', path: '/recordings/{id}/speakers' },
  { method: 'post', path: '/recordings/{id}/regenerate' },
  { method: 'delete', path: '/series/{id}' },
  { method: 'post', path: '/series/{id}/members' },
  { method: 'get', path: '/tokens' },
  { method: 'post', path: '/tokens' },
  { method: 'delete', path: '/tokens/{id}' },
  { method: 'post', path: '/account/minutes' },
  { method: 'patch', path: '/account/profile' },
];

/** The route of an operationId, or undefined. */
export function findRoute(operationId: string): RouteDef | undefined {
  return ROUTES.find((r) => r.operationId === operationId);
}
