import type { ChallengeAnswer, PayLinkView, PayRequest, PayResult } from '@remit/contract';
import { request } from '@remit/form-kit';
import { locale } from './i18n.js';

/** The page's calls to its own server; a failure is a value (status 0: the network), shown in the page's language. */
export type { ApiResult } from '@remit/form-kit';

const link = (id: string) => `/pay/api/links/${encodeURIComponent(id)}`;
// The page's language goes with each call: the receipt email is written in it.
export const keyed = (key: string) => ({ 'idempotency-key': key, 'accept-language': locale.value });

export const getLink = (linkId: string) => request<PayLinkView>('GET', link(linkId));
export const payLink = (linkId: string, req: PayRequest, key: string) =>
  request<PayResult>('POST', `${link(linkId)}/pay`, req, keyed(key));
export const answerChallenge = (linkId: string, challengeId: string, answer: ChallengeAnswer, key: string) =>
  request<PayResult>('POST', `${link(linkId)}/challenges/${encodeURIComponent(challengeId)}`, answer, keyed(key));
