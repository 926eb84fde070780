/**
 * The platform: what every process needs that is not HTTP (errors, ids, configuration, logging,
 * principals, the schema checker, the metrics registry) and the Idempotency-Key protocol. The
 * bus, the store and the clients import it (or the contract), never libs/http.
 */
export * from './errors';
export * from './ids';
export * from './config';
export * from './stream-config';
export * from './logger';
export * from './principal';
export * from './schema-check';
export * from './metrics';
export * from './build-info';
export * from './idempotency';
export * from './periodic';
export * from './turn-batch';
