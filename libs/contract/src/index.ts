export * from './catalog';
export * from './schema-helpers';
export * from './routes.types';
export * from './routes';
export * from './route-match';
export * from './route-errors';
export * from './schemas';
export * from './openapi';
