export * from './connection';
export * from './table';
export * from './rpc';
export * from './consumer';
export * from './outbox';
export * from './dead-letters';
export * from './publish';
export * from './auth';
