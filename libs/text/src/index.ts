export * from './whitespace';
export * from './keyterms';
export * from './search';
