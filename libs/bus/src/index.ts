export * from './connection';
export * from './rpc';
export * from './consumer';
export * from './outbox';
