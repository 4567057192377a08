import type { Requirement, Verification } from '@remit/contract';
import { dateTime } from './format.js';

/** The verification statuses as the portal says them. */
const STATUS: Record<Verification['status'], string> = {
  action_required: 'Action required',
  pending_review: 'Under review',
  complete: 'Complete',
  restricted: 'Restricted: payments paused',
  rejected: 'Rejected',
};

const BADGE: Record<Verification['status'], string> = {
  action_required: 'pending',
  pending_review: 'pending',
  complete: 'approved',
  restricted: 'failed',
  rejected: 'failed',
};

const Items = ({ items }: { items: Requirement[] }) => (
  <ul class="requirements">
    {items.map((i) => (
      <li key={i.requirement}>
        {i.label} <code>{i.requirement}</code>
      </li>
    ))}
  </ul>
);

/** What the processor still needs from a merchant: status, what is due and by when, what was refused and why. */
export function VerificationFacts({ v }: { v: Verification }) {
  const due = [...new Map([...v.past_due, ...v.currently_due].map((i) => [i.requirement, i])).values()];
  return (
    <>
      <dt>Verification</dt>
      <dd>
        <span class={`badge badge--${BADGE[v.status]}`}>{STATUS[v.status]}</span>
        {v.disabled_reason && (
          <>
            {' '}
            <code>{v.disabled_reason}</code>
          </>
        )}
      </dd>
      {due.length > 0 && (
        <>
          <dt>Needed</dt>
          <dd>
            <Items items={due} />
            {v.deadline && <p class="deadline">By {dateTime(v.deadline)}</p>}
          </dd>
        </>
      )}
      {v.errors.length > 0 && (
        <>
          <dt>Refused</dt>
          <dd>
            <ul class="requirements">
              {v.errors.map((e) => (
                <li key={`${e.requirement} ${e.code}`}>
                  {e.label}: {e.reason} <code>{e.code}</code>
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {v.pending_verification.length > 0 && (
        <>
          <dt>Being verified</dt>
          <dd>
            <Items items={v.pending_verification} />
          </dd>
        </>
      )}
      <dt>Charges, payouts</dt>
      <dd>
        {v.charges_enabled ? 'Charges on' : 'Charges off'}, {v.payouts_enabled ? 'payouts on' : 'payouts off'}
      </dd>
    </>
  );
}
