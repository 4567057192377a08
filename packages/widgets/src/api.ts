import type { RemitWidgetError } from '@remit/contract';
import type { WidgetContext } from '@remit/loader/ui';

/** Calls of the widget backend (`/widget/v1`) with the public key; failures become `RemitWidgetError`s. */

export const widgetError = (code: string, message: string, status?: number): RemitWidgetError =>
  Object.assign(new Error(message), { code, status });

export type Call = <T>(path: string, body?: Record<string, string>) => Promise<T>;

export function widgetApi(ctx: WidgetContext, f: typeof fetch = fetch): Call {
  return async <T>(path: string, body?: Record<string, string>): Promise<T> => {
    const url = `${ctx.base}/widget/v1${path}${path.includes('?') ? '&' : '?'}public_key=${encodeURIComponent(ctx.key)}`;
    let res: Response;
    try {
      res = await f(url, {
        method: body === undefined ? 'GET' : 'POST',
        // Form-encoded, not JSON: a CORS "simple" request, so no preflight round trip before the
        // pay link (the server checks the Origin itself either way).
        body: body === undefined ? undefined : new URLSearchParams(body),
        credentials: 'omit',
      });
    } catch {
      throw widgetError(
        'network_error',
        `could not reach ${ctx.base} (offline, or this page's origin is not in the widget settings' allowed_origins)`,
      );
    }
    const json = (await res.json().catch(() => null)) as {
      result?: boolean;
      data?: T;
      code?: string;
      message?: string;
    } | null;
    if (!res.ok || !json?.result)
      throw widgetError(
        json?.code || `http_${res.status}`,
        json?.message || `the server answered ${res.status}`,
        res.status,
      );
    return json.data as T;
  };
}
