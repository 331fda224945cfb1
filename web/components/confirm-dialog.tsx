import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** The action's button, e.g. "Yes, delete my account". */
  confirmLabel: string;
  /** The way out, focused first: Enter on a dialog opened by mistake changes nothing. */
  cancelLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  /** Cancel, Escape: the dialog closes and focus goes back to what opened it. */
  onCancel: () => void;
}

/**
 * A modal confirmation in the page's own look: the browser's <dialog> opened with showModal(), so the rest of
 * the page is inert (focus stays inside, Escape cancels), and focus returns to the control that opened it.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel, danger, busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      el.showModal();
      cancel.current?.focus();
    } else if (!open && el.open) {
      el.close();
    }
  }, [open]);

  // Closed by any path (a button, Escape, the dialog leaving the page): focus goes back where it was, when
  // that control is still on the page.
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    const restore = () => {
      const back = opener.current;
      opener.current = null;
      if (back?.isConnected && !back.closest('[hidden]')) back.focus();
    };
    el.addEventListener('close', restore);
    return () => el.removeEventListener('close', restore);
  }, []);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(e) => {
        // Escape: React's state decides whether the dialog is open.
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={`${id}-title`} className="confirm-dialog__title">
        {title}
      </h2>
      <div id={`${id}-text`} className="confirm-dialog__text">
        {children}
      </div>
      <div className="actions confirm-dialog__actions">
        <button ref={cancel} type="button" className="button button--secondary" disabled={busy} onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={danger ? 'button button--danger' : 'button'} disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
