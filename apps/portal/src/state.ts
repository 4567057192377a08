import { computed, signal } from '@preact/signals';
import type { Credentials, MerchantWithKey, PortalSession } from '@remit/contract';

/** undefined while the page asks whether a session exists; null when signed out. */
export const session = signal<PortalSession | null | undefined>(undefined);

/**
 * Credentials made in this page: the secret is shown once and kept only in this variable (never
 * in any storage), so the snippets can carry it until the tab closes or the user signs out.
 */
export const created = signal<Credentials | null>(null);

export const merchants = signal<MerchantWithKey[]>([]);
export const merchantId = signal<string | null>(null);
export const merchant = computed(
  () => merchants.value.find((m) => m.merchant_id === merchantId.value) ?? merchants.value[0] ?? null,
);

export function setMerchants(list: MerchantWithKey[]): void {
  merchants.value = list;
  if (!list.some((m) => m.merchant_id === merchantId.value)) merchantId.value = list[0]?.merchant_id ?? null;
}
