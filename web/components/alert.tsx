import type { ReactNode } from 'react';

/**
 * A compact message next to the action it is about. Errors are announced at once (role="alert"), successes
 * politely (role="status"), as is a `notice` (something the server did that the user should know, not an error of
 * theirs); the tone is chosen by the caller, never guessed from the text.
 */
export function Alert({ tone, children, actions }: { tone: 'error' | 'success' | 'notice'; children: ReactNode; actions?: ReactNode }) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="alert__text">{children}</div>
      {actions ? <div className="alert__actions">{actions}</div> : null}
    </div>
  );
}
