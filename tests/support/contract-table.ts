/**
 * The contract's operations, written out by hand from API-CONTRACT.md (not from libs/contract),
 * so that tests check the implementation against the text.
 */
export interface ExpectedOperation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  scopes: string[] | 'any';
  spends: boolean;
  rateClass: 'read' | 'submit' | 'search' | 'ask' | 'settings';
}

export const EXPECTED_OPERATIONS: ExpectedOperation[] = [
  { operationId: 'whoami', method: 'get', path: '/whoami', scopes: 'any', spends: false, rateClass: 'read' },
  { operationId: 'listReadyRecordings', method: 'get', path: '/recordings/ready', scopes: ['recordings:read'], spends: false, rateClass: 'read' },
  { operationId: 'searchRecordings', method: 'get', path: '/recordings/search', scopes: ['recordings:query'], spends: false, rateClass: 'search' },
  { operationId: 'quoteRecordingAsk', method: 'get', path: '/recordings/{id}/ask/quote', scopes: ['recordings:query'], spends: false, rateClass: 'search' },
  { operationId: 'askRecording', method: 'post', path: '/recordings/{id}/ask', scopes: ['recordings:query'], spends: true, rateClass: 'ask' },
  { operationId: 'getRecordingBundle', method: 'get', path: '/recordings/{id}/bundle', scopes: ['recordings:read'], spends: false, rateClass: 'read' },
  { operationId: 'getRecordingStatus', method: 'get', path: '/recordings/{id}/status', scopes: ['recordings:read', 'recordings:write'], spends: false, rateClass: 'read' },
  { operationId: 'submitRecording', method: 'post', path: '/recordings', scopes: ['recordings:write'], spends: true, rateClass: 'submit' },
  { operationId: 'skipRecordingNaming', method: 'post', path: '/recordings/{id}/naming', scopes: ['recordings:write'], spends: false, rateClass: 'submit' },
  { operationId: 'retryRecording', method: 'post', path: '/recordings/{id}/retry', scopes: ['recordings:write'], spends: false, rateClass: 'submit' },
  { operationId: 'listEvents', method: 'get', path: '/events', scopes: ['recordings:read', 'recordings:write'], spends: false, rateClass: 'read' },
  { operationId: 'listReadableSeries', method: 'get', path: '/series/readable', scopes: ['series:read'], spends: false, rateClass: 'read' },
  { operationId: 'getSeries', method: 'get', path: '/series/{id}', scopes: ['series:read'], spends: false, rateClass: 'read' },
  { operationId: 'createSeries', method: 'post', path: '/series', scopes: ['series:write'], spends: false, rateClass: 'settings' },
  { operationId: 'updateSeries', method: 'patch', path: '/series/{id}', scopes: ['series:write'], spends: false, rateClass: 'settings' },
  { operationId: 'getSeriesKeyterms', method: 'get', path: '/series/{id}/keyterms', scopes: ['series:read'], spends: false, rateClass: 'read' },
  { operationId: 'replaceSeriesKeyterms', method: 'put', path: '/series/{id}/keyterms', scopes: ['series:write'], spends: false, rateClass: 'settings' },
  { operationId: 'quoteSeriesAsk', method: 'get', path: '/series/{id}/ask/quote', scopes: ['series:query'], spends: false, rateClass: 'search' },
  { operationId: 'askSeries', method: 'post', path: '/series/{id}/ask', scopes: ['series:query'], spends: true, rateClass: 'ask' },
  { operationId: 'getAccount', method: 'get', path: '/account', scopes: ['account:read'], spends: false, rateClass: 'read' },
  { operationId: 'getAccountKeyterms', method: 'get', path: '/account/keyterms', scopes: ['account:read'], spends: false, rateClass: 'read' },
  { operationId: 'replaceAccountKeyterms', method: 'put', path: '/account/keyterms', scopes: ['account:write'], spends: false, rateClass: 'settings' },
  { operationId: 'listMemory', method: 'get', path: '/account/memory', scopes: ['account:read'], spends: false, rateClass: 'read' },
  { operationId: 'updateAccountSettings', method: 'patch', path: '/account/settings', scopes: ['account:write'], spends: false, rateClass: 'settings' },
  { operationId: 'updateMemoryItem', method: 'patch', path: '/account/memory/{id}', scopes: ['account:write'], spends: false, rateClass: 'settings' },
  { operationId: 'deleteMemoryItem', method: 'delete', path: '/account/memory/{id}', scopes: ['account:write'], spends: false, rateClass: 'settings' },
];

export const EXPECTED_BUDGETS = { read: 600, submit: 30, search: 120, ask: 30, settings: 60 } as const;

export const ALL_SCOPES = [
  'recordings:read', 'recordings:write', 'recordings:query',
  'series:read', 'series:write', 'series:query',
  'account:read', 'account:write',
];
