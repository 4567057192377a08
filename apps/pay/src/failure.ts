import type { ApiResult } from './api.js';
import type { Messages } from './i18n.js';

export interface FailureText {
  title: string;
  message: string;
  hint?: string;
}

/**
 * What a failed pay, report or save call tells the customer. Only a decline (402) says "declined";
 * a server or processor failure says it was technical, that no money moved when the answer says so
 * (`processor_error`, `processor_unavailable`: nothing was changed), and to try again in a moment,
 * in the page's language: never the API's words for developers.
 */
export function failureOf(res: Extract<ApiResult<unknown>, { ok: false }>, m: Messages): FailureText {
  const { status, code, message } = res;
  if (status === 402) return { title: m.declinedTitle, message, hint: m.tryAnother };
  return {
    title: m.notCompletedTitle,
    message: !status
      ? m.networkError
      : status < 500
        ? message
        : code.startsWith('processor_')
          ? m.technicalNoMoney
          : m.technicalRetry,
  };
}
