export { schemaBreaks, type SchemaRoots } from './schema-breaks';
export { openapiBreaks } from './openapi-breaks';
export { busBreaks, type BusSnapshot, type BusSubjectSnapshot, type BusVersionSnapshot } from './bus-breaks';
export { contractBreaks, type CompatibilityReport, type ContractSnapshots } from './contract-breaks';
