import './error-message.css';

/** A field's error message, tied to its input by `id` (the input's `aria-describedby`); nothing when valid. */
export function ErrorMessage({ id, error }: { id: string; error?: string | undefined }) {
  return error ? (
    <p class="error-message" id={id}>
      {error}
    </p>
  ) : null;
}
