export * from './whitespace';
export * from './keyterms';
