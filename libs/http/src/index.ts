export * from './errors';
export * from './principal';
export * from './app';
export * from './validate';
export * from './logger';
export * from './server';
export * from './config';
export * from './ids';
