/** Payload of each event type, with the spec's field names and types. */
export interface EventData {
  'payment.success': {
    transaction_id: string;
    merchant_id: string;
    amount: number;
    net_amount: number;
    fee_amount: number;
    order_id: string;
    last_four: string;
    brand: string;
    link_id: string;
  };
  'merchant.onboarding': {
    merchant_key: string;
    merchant_id: string;
    business_name: string;
    email: string;
    public_key: string;
  };
  'merchant.approval': { merchant_id: string; business_name: string; email: string; company_id: string };
  'documents.signed': { merchant_id: string; business_name: string; website: string; email: string; company_id: string };
  'ach.update': {
    merchant_id: string;
    status: 'Approved' | 'Declined';
    tran_id: string;
    message: 'Approved' | 'Insufficient Funds';
    return_transaction_id?: string;
  };
  'payment.void': VoidRecordEvent & { type: 'Void'; Status: 'Success' | 'Error' };
  'payment.refund': VoidRecordEvent & { type: 'Refund'; Status: 'Success'; parent_transaction_id: string };
  preauth: { merchant_id: string; guid: string; amount: number; order_id: string; customer_id: number };
  'preauth.increment': PreauthChange;
  'preauth.decrement': PreauthChange;
  'preauth.charge': {
    merchant_id: string;
    transaction_id: string;
    order_id: string;
    amount: number;
    net_amount: number;
    fee_amount: number;
  };
  'preauth.void': VoidRecordEvent & { type: 'Void'; Status: 'Success' };
}

interface VoidRecordEvent {
  merchant_id: string;
  transaction_id: string;
  linked_txn_id: string;
  sales_id: string;
  order_createdfrom: string;
  amount: number;
  txn_id: string;
  txn_date: string;
}

interface PreauthChange {
  merchant_id: string;
  transaction_id: string;
  order_id: string;
  last_authorized_amount: number;
  authorized_amount: number;
}

export type EventType = keyof EventData;

export const EVENT_TYPES = [
  'payment.success',
  'merchant.onboarding',
  'merchant.approval',
  'documents.signed',
  'ach.update',
  'payment.void',
  'payment.refund',
  'preauth',
  'preauth.increment',
  'preauth.decrement',
  'preauth.charge',
  'preauth.void',
] as const satisfies readonly EventType[];
