// The CommonJS entry's types: the ES module's exports, as require() on Node 20.19+ and 22.12+ gives them.
declare const sdk: typeof import('./index.js', { with: { 'resolution-mode': 'import' }});
export = sdk;
