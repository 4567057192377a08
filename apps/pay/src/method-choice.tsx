import type { PayMethod } from '@remit/contract';
import { t } from './i18n.js';

/** Card or bank account, offered only when the link allows both. */
export function MethodChoice({ value, onChange }: { value: PayMethod; onChange: (m: PayMethod) => void }) {
  const m = t();
  return (
    <fieldset class="fieldset methods">
      <legend class="label">{m.method}</legend>
      <div class="choices choices--tiles">
        {(['card', 'ach'] as const).map((method) => (
          <label class="choice choice--tile" key={method}>
            <input
              type="radio"
              name="method"
              id={`method-${method}`}
              value={method}
              checked={value === method}
              onChange={() => onChange(method)}
            />
            <span>{method === 'card' ? m.card : m.bank}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
