import { SCOPES, TOKEN_EXPIRY_DAYS, LIMITS } from '@mm/contract';

/** JSON Schemas of the admin API bodies (ARCHITECTURE.md section 7); not part of openapi.json. */
const switches = {
  type: 'object',
  properties: { API_WRITE_ENABLED: { type: 'boolean' }, API_QUERY_ENABLED: { type: 'boolean' } },
  additionalProperties: false,
};
const features = {
  type: 'object',
  properties: { series: { type: 'boolean' }, ask: { type: 'boolean' }, videoUpload: { type: 'boolean' }, memory: { type: 'boolean' } },
  additionalProperties: false,
};
const displayName = { type: ['string', 'null'], maxLength: 200 };
const email = { type: ['string', 'null'], maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' };

export const createAccountBody = {
  type: 'object',
  properties: {
    displayName,
    email,
    balanceMinutes: { type: 'integer', minimum: 0 },
    developerMode: { type: 'boolean' },
    approved: { type: 'boolean' },
    trial: { type: 'boolean' },
    switches,
    features,
  },
  additionalProperties: false,
};

export const patchAccountBody = {
  type: 'object',
  properties: { displayName, email, developerMode: { type: 'boolean' }, approved: { type: 'boolean' }, switches, features, trial: { type: 'boolean' } },
  additionalProperties: false,
};

export const minutesBody = {
  type: 'object',
  properties: { minutes: { type: 'integer', minimum: 1, maximum: 10_000_000 } },
  required: ['minutes'],
  additionalProperties: false,
};

export const createTokenBody = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...SCOPES] } },
    expiresInDays: { enum: [...TOKEN_EXPIRY_DAYS, null] },
    dailyMinuteCap: { type: ['integer', 'null'], minimum: LIMITS.dailyMinuteCapMin, maximum: LIMITS.dailyMinuteCapMax },
  },
  required: ['name', 'scopes'],
  additionalProperties: false,
};

export const flagsBody = {
  type: 'object',
  properties: { tokensDisabled: { type: 'boolean' } },
  required: ['tokensDisabled'],
  additionalProperties: false,
};

export const seriesMemberBody = {
  type: 'object',
  properties: { accountId: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['accountId'],
  additionalProperties: false,
};

export const inviteBody = {
  type: 'object',
  properties: { email: { type: 'string', maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' } },
  additionalProperties: false,
};
