export { schemaBreaks, type SchemaRoots } from './schema-breaks';
export { openapiBreaks } from './openapi-breaks';
export { busBreaks, type BusSnapshot, type BusSubjectSnapshot, type BusVersionSnapshot } from './bus-breaks';
export { contractBreaks, type CompatibilityReport, type ContractSnapshots } from './contract-breaks';
export { STATED_BOUNDS, isStatedBound, type StatedBound } from './stated-bounds';
