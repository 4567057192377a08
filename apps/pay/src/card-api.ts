import type { AddCardRequest, AddCardResult } from '@remit/contract';
import { request } from '@remit/form-kit';
import { keyed } from './api.js';

/** The add-card page's one call, in that page's chunk: the pay page's script does not carry it. */
export const saveCard = (token: string, req: AddCardRequest, key: string) =>
  request<AddCardResult>('POST', `/pay/api/cards/${encodeURIComponent(token)}`, req, keyed(key));
