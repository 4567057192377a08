import { useState } from 'preact/hooks';
import { announce } from '@remit/form-kit';

/** Copies `text` to the clipboard and says so. Shows "Copy"; `label` is its full name for assistive technology ("Copy secret key"). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      announce('Copied to the clipboard.');
      setTimeout(() => setDone(false), 2000);
    } catch {
      announce('Copying was not allowed by the browser: select the text and copy it.');
    }
  };
  return (
    <button
      type="button"
      class="button button--small button--secondary copy"
      aria-label={done ? 'Copied' : label}
      onClick={copy}
    >
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}
