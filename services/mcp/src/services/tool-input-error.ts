/** A tool argument the server cannot use; answered as a VALIDATION tool error. */
export class ToolInputError extends Error {}
