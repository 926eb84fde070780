export * from './database';
export * from './migrate';
export * from './prepared';
export * from './statement-counter';
