/**
 * `@remit/contract`: every wire shape of Remit, declared once. The server validates with these
 * schemas and generates its OpenAPI document from them; the SDK and every front end take their
 * types from here. Imports nothing from Node or any framework, so a browser bundle can use it.
 */
export * from './pay-page.js';
