import type { ApiResult } from './api.js';
import type { Messages } from './i18n.js';

export interface FailureText {
  title: string;
  message: string;
  hint?: string;
}

/** Codes whose answer says nothing was changed: the processor failed, or none is configured. */
const NOTHING_MOVED = new Set(['processor_error', 'processor_unavailable']);

/**
 * What a failed pay, report or save call tells the customer. Only a decline (402) says "declined";
 * a server or processor failure says it was technical, that no money moved when the answer says
 * so, and to try again in a moment, in the page's language (never the API's own words for developers).
 */
export function failureOf(res: Extract<ApiResult<unknown>, { ok: false }>, m: Messages): FailureText {
  if (res.status === 0) return { title: m.notCompletedTitle, message: m.networkError };
  if (res.status === 402) return { title: m.declinedTitle, message: res.message, hint: m.tryAnother };
  if (res.status >= 500)
    return { title: m.notCompletedTitle, message: NOTHING_MOVED.has(res.code) ? m.technicalNoMoney : m.technicalRetry };
  return { title: m.notCompletedTitle, message: res.message };
}
