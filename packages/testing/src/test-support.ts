import { createServer } from 'node:net';

/** The kit's own tests: a card and a bank account the simulator approves, and a free port. */
export const card = {
  number: '4242424242424242',
  exp_month: 12,
  exp_year: new Date().getFullYear() + 3,
  cvc: '123',
  zip: '94105',
};
export const bank = {
  routing_number: '011000015',
  account_number: '000123456789',
  account_type: 'checking',
  holder_name: 'Ada Lovelace',
};

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
