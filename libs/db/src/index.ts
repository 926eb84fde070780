export * from './database';
export * from './migrate';
export * from './prepared';
