// What moved to libs/platform (errors, ids, config, logging, principals, the schema checker,
// metrics) is re-exported here, so a service's imports from @mm/http keep working.
export * from '@mm/platform';
export * from './edge';
export * from './app';
export * from './validate';
export * from './server';
export * from './mount';
export * from './early-answer';
export * from './body-watch';
export * from './app-door';
