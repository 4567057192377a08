'use client';
import { createElement, useEffect, useRef, type ReactElement, type ReactNode } from 'react';
import type { RemitWidgets } from '@remit/loader';
import { buttonText, load, press, toError } from '@remit/wrapper-core';
import type {
  PaymentResult,
  RemitConnection,
  RemitReady,
  RemitWidgetError,
  RequestResult,
} from '@remit/wrapper-core/types';

/** Called once the loader is there (`remit:ready`): the component works from then on. */
interface Ready {
  onReady?: (detail: RemitReady) => void;
}

/** Callbacks and button text shared by the two buttons. */
export interface RemitButtonProps<R> extends RemitConnection, Ready {
  /** The amount, in major units: `12.3` or `"12.30"`. */
  amount: number | string;
  /** Called when the payment (or the request) went through. */
  onSuccess?: (result: R) => void;
  /** Called when the loader, the amount, the key or the server refuses; the error's message says why. */
  onError?: (error: RemitWidgetError) => void;
  /** Called when the customer closes the pay window without paying. */
  onClose?: () => void;
  /** The button's text. */
  children?: ReactNode;
}
export interface GetPaymentPageProps extends RemitButtonProps<PaymentResult> {
  /** Your own order id: shown to the customer on the pay page and receipt (none given: none shown). */
  order_id?: string;
  /** Close the modal the moment the payment succeeds, without the short confirmation. */
  skip_confirmation?: boolean;
}
export interface RequestPaymentonClickProps extends RemitButtonProps<RequestResult> {
  /** The customer's phone: a US number or E.164. */
  phone_number: string;
}
export interface CompletedTransactionsProps extends RemitConnection, Ready {
  onError?: (error: RemitWidgetError) => void;
}

/** A button that loads Remit ahead of the click and runs one widget call on each click. */
function useRemitButton<R>(
  props: RemitButtonProps<R>,
  call: (remit: RemitWidgets) => Promise<R>,
  which: 0 | 1,
): ReactElement {
  // The latest props, read at click time, so a parent re-rendering new callbacks needs no effect.
  const latest = useRef({ props, call });
  latest.current = { props, call };
  const { clientKey, baseUrl, nonce, locale } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again only when the loader's settings change; callbacks are read from `latest`
  useEffect(() => {
    // Warm the loader: one script per page whatever mounts it (StrictMode's second mount reuses it).
    load(latest.current.props).then(
      (remit) => remit && latest.current.props.onReady?.({ public_key: remit.publicKey }),
      () => {},
    );
  }, [clientKey, baseUrl, nonce, locale]);
  const onClick = () => {
    const { props: p, call: c } = latest.current;
    press(p, c, { success: (r) => p.onSuccess?.(r), close: () => p.onClose?.(), error: (e) => p.onError?.(e) });
  };
  return createElement('button', { type: 'button', onClick }, props.children ?? buttonText(locale, which));
}

/** A pay button: opens Remit's hosted pay page for `amount` in a modal (a popup on narrow screens). */
export function GetPaymentPage(props: GetPaymentPageProps): ReactElement {
  return useRemitButton(
    props,
    (remit) =>
      remit.getPaymentPage(props.amount, { order_id: props.order_id, skip_confirmation: props.skip_confirmation }),
    0,
  );
}

/** A button that texts `phone_number` a link to pay `amount`, then shows a confirmation. */
export function RequestPaymentonClick(props: RequestPaymentonClickProps): ReactElement {
  return useRemitButton(props, (remit) => remit.sendRequestPayment(props.amount, props.phone_number), 1);
}

/** The merchant's completed transactions (date, amount, brand and last four, status), paginated. */
export function CompletedTransactions(props: CompletedTransactionsProps): ReactElement {
  const el = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const { clientKey, baseUrl, nonce, locale } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: mounted again only when the loader's settings change; the rest is read from `latest`
  useEffect(() => {
    // Mounted once the loader is there; a cleanup that comes first (StrictMode) cancels that mount.
    let live = true;
    let unmount: (() => void) | undefined;
    load(latest.current).then(
      (remit) => {
        if (live && remit && el.current) {
          unmount = remit.mountTransactions(el.current);
          latest.current.onReady?.({ public_key: remit.publicKey });
        }
      },
      (error: unknown) => live && latest.current.onError?.(toError(error)),
    );
    return () => {
      live = false;
      unmount?.();
    };
  }, [clientKey, baseUrl, nonce, locale]);
  return createElement('div', { ref: el, 'data-remit-widget': 'completed-transactions' });
}
