// The wrappers' runtime glue; their published types are in ./types (no imports, so dist/ can carry them).
export { load, press, toError, type ButtonOutcome } from './connect.js';
export { buttonText } from './button-text.js';
