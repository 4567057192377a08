/** A field the server refused: the request body's path and what to fix. */
export interface FieldError {
  path: string;
  message: string;
}

/** A call's answer: the data, or the error envelope's code, message and field errors (when it has any). Status 0: the network failed. */
export type ApiResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; code: string; message: string; errors?: FieldError[] | undefined };

/**
 * A JSON call to the page's own server that never throws: a failure is a value the form can show.
 * The session cookie goes along (same origin); nothing is cached.
 *
 * @example const r = await request<PayResult>('POST', '/pay/api/links/pl_1/pay', body, { 'idempotency-key': key });
 */
export async function request<T>(
  method: string,
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    return { ok: false, status: 0, code: 'network_error', message: '' };
  }
  // An empty body (204) or a proxy's HTML page reads as null.
  const json = (await res.json().catch(() => null)) as {
    code?: string;
    message?: string;
    errors?: FieldError[];
  } | null;
  if (res.ok) return { ok: true, data: json as T };
  return {
    ok: false,
    status: res.status,
    code: json?.code ?? 'error',
    message: json?.message ?? res.statusText,
    errors: json?.errors,
  };
}
