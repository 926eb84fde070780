export * from './common.schemas';
export * from './errors.schemas';
export * from './recordings.schemas';
export * from './bundle.schemas';
export * from './events.schemas';
export * from './series.schemas';
export * from './account.schemas';
export * from './ask.schemas';
