import type { Ctx } from '@remit/core';

export function openApiInfo(ctx: Ctx) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Remit merchant payments API',
      version: '1.0.0',
      description:
        'HTTP Basic authentication (client_id as username, secret_key as password) on every call. ' +
        'Errors answer `{result:false, message, code, errors?, request_id}`. ' +
        'Money is decimal text with two places unless a field is typed as a number.',
    },
    servers: openApiServers(ctx),
    components: { securitySchemes: { basicAuth: { type: 'http' as const, scheme: 'basic' } } },
    security: [{ basicAuth: [] }],
  };
}

/**
 * The server root, not /api/v1: the sandbox and portal endpoints live beside the API. Read when the
 * document is served, so it names the address the server really has.
 */
export function openApiServers(ctx: Ctx) {
  return [{ url: ctx.publicUrl, description: `${ctx.env}; the API base is ${ctx.publicUrl}/api/v1` }];
}
