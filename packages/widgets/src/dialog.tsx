import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * A modal `<dialog>` (showModal): the page behind is inert, so focus stays inside; Escape closes
 * it (`cancel`), and the caller returns focus to the button that opened it.
 */
export function Modal(props: {
  label: string;
  class: string;
  onClose: () => void;
  children: ComponentChildren;
  labelledBy?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Shown as soon as it is in the document (not a frame later): the click answers at once.
  useLayoutEffect(() => {
    const d = ref.current!;
    if (!d.open) d.showModal();
    return () => d.close();
  }, []);
  return (
    <dialog
      ref={ref}
      class={props.class}
      aria-label={props.labelledBy ? undefined : props.label}
      aria-labelledby={props.labelledBy}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      {props.children}
    </dialog>
  );
}
