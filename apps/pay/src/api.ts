import type {
  AddCardRequest,
  AddCardResult,
  ChallengeAnswer,
  PayLinkView,
  PayRequest,
  PayResult,
} from '@remit/contract';

/** The page's calls to its own server. Failures carry the envelope's code and message; 0 = network. */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; code: string; message: string };

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    return { ok: false, status: 0, code: 'network_error', message: '' };
  }
  const json = (await res.json().catch(() => null)) as { message?: string; code?: string } | null;
  if (res.ok) return { ok: true, data: json as T };
  return { ok: false, status: res.status, code: json?.code ?? 'error', message: json?.message ?? res.statusText };
}

const link = (id: string) => `/pay/api/links/${encodeURIComponent(id)}`;

export const getLink = (linkId: string) => call<PayLinkView>('GET', link(linkId));
export const payLink = (linkId: string, req: PayRequest, key: string) => call<PayResult>('POST', `${link(linkId)}/pay`, req, key);
export const answerChallenge = (linkId: string, challengeId: string, answer: ChallengeAnswer, key: string) =>
  call<PayResult>('POST', `${link(linkId)}/challenges/${encodeURIComponent(challengeId)}`, answer, key);
export const saveCard = (token: string, req: AddCardRequest, key: string) =>
  call<AddCardResult>('POST', `/pay/api/cards/${encodeURIComponent(token)}`, req, key);
