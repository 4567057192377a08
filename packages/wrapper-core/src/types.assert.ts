// Compile-time only: the published types in types.ts equal the loader's. `npm run typecheck` fails otherwise.
import type * as Loader from '@remit/loader';
import type * as Own from './types.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const sameTypes: [Same<Own.PaymentResult, Loader.PaymentResult>, Same<Own.RequestResult, Loader.RequestResult>] =
  [true, true];
export const errorFits: Own.RemitWidgetError = {} as Loader.RemitWidgetError;
export const eventTypes: [
  Same<Own.Appearance, Loader.Appearance>,
  Same<Own.RemitReady, Loader.RemitReady>,
  Same<Own.Theme, Loader.Theme>,
] = [true, true, true];
