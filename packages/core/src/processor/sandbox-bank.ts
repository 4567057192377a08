/**
 * The simulated bank behind the sandbox tools (`POST /update-ach`): what it answers when a
 * pending ACH debit is resolved. A real network answers on its own, so this is no part of the
 * connector interface.
 */
export type AchOutcome = { approved: true } | { approved: false; code: string; message: string };

/** docs/concepts.md "Test cards": an account number ending 0000 is returned (R01 Insufficient Funds); any other is approved. */
export function sandboxAchOutcome(accountNumber: string): AchOutcome {
  return accountNumber.endsWith('0000')
    ? { approved: false, code: 'R01', message: 'Insufficient Funds' }
    : { approved: true };
}
