import { defineComponent, h, onBeforeUnmount, onMounted, ref, watch, type PropType } from 'vue';
import type { RemitWidgets } from '@remit/loader';
import { buttonText, load, press, toError } from '@remit/wrapper-core';
import type {
  Appearance,
  PaymentResult,
  RemitConnection,
  RemitReady,
  RemitWidgetError,
  RequestResult,
} from '@remit/wrapper-core/types';

/** Props of every component: the merchant public key, the Remit server (default: the page's origin), a CSP nonce, the customer's language, this page's appearance. */
const connection = {
  clientKey: { type: String, required: true },
  baseUrl: String,
  nonce: String,
  locale: String,
  appearance: Object as PropType<Appearance>,
} as const;
/** Once the loader is there (`remit:ready`). */
const ready = (_detail: RemitReady) => true;
const readyOf = (remit: RemitWidgets): RemitReady => ({ public_key: remit.publicKey });
/** The amount, in major units: `12.3` or `"12.30"`. */
const amount = { type: [Number, String] as PropType<number | string>, required: true } as const;
const phone_number = { type: String, required: true } as const;

/** A button that loads Remit once mounted and runs one widget call per click: emits success, close or error. */
function button<R, P extends object>(
  name: string,
  props: P,
  which: 0 | 1,
  call: (remit: RemitWidgets, props: any) => Promise<R>,
) {
  return defineComponent({
    name,
    props: { ...connection, amount, ...props },
    emits: {
      ready,
      success: (_result: R) => true,
      error: (_error: RemitWidgetError) => true,
      close: () => true,
    },
    setup(props, { emit, slots }) {
      // The generic props type is opaque to TS inside this factory; every button has these.
      const p = props as unknown as RemitConnection;
      // Warm the loader (one script per page, whatever mounts it); onMounted never runs on the server.
      onMounted(() =>
        load(p).then(
          (remit) => remit && emit('ready', readyOf(remit)),
          () => {},
        ),
      );
      const onClick = () =>
        press(p, (remit) => call(remit, p), {
          success: (r) => emit('success', r),
          close: () => emit('close'),
          error: (e) => emit('error', e),
        });
      return () => h('button', { type: 'button', onClick }, slots.default?.() ?? buttonText(p.locale, which));
    },
  });
}

/** A pay button: opens Remit's hosted pay page for `amount` in a modal (a popup on narrow screens); `order_id` (yours, shown to the customer) and `skip_confirmation` (close at once on success) as `getPaymentPage` takes them. */
export const GetPaymentPage = button<
  PaymentResult,
  { order_id: StringConstructor; skip_confirmation: BooleanConstructor }
>(
  'GetPaymentPage',
  { order_id: String, skip_confirmation: Boolean },
  0,
  // The props are the options (getPaymentPage reads only order_id and skip_confirmation of them): fewer bytes of a 2 KB budget.
  (remit, p) => remit.getPaymentPage(p.amount, p),
);

/** A button that texts `phone_number` a link to pay `amount`, then shows a confirmation. */
export const RequestPaymentonClick = button<RequestResult, { phone_number: typeof phone_number }>(
  'RequestPaymentonClick',
  { phone_number },
  1,
  (remit, p) => remit.sendRequestPayment(p.amount, p.phone_number),
);

/** The merchant's completed transactions (date, amount, brand and last four, status), paginated. */
export const CompletedTransactions = defineComponent({
  name: 'CompletedTransactions',
  props: connection,
  emits: { ready, error: (_error: RemitWidgetError) => true },
  setup(p, { emit }) {
    const el = ref<HTMLElement>();
    let unmount: (() => void) | undefined;
    // Each (re)mount bumps it: a loader that resolves after an unmount or a newer mount mounts nothing.
    let generation = 0;
    const stop = () => {
      generation++;
      unmount?.();
      unmount = undefined;
    };
    const mount = () => {
      stop();
      const mine = generation;
      load(p).then(
        (remit) => {
          if (mine === generation && remit && el.value) {
            unmount = remit.mountTransactions(el.value);
            emit('ready', readyOf(remit));
          }
        },
        (error: unknown) => mine === generation && emit('error', toError(error)),
      );
    };
    onMounted(() => {
      mount();
      watch(() => [p.clientKey, p.baseUrl, p.nonce, p.locale], mount);
    });
    onBeforeUnmount(stop);
    return () => h('div', { ref: el, 'data-remit-widget': 'completed-transactions' });
  },
});
