import { type FormEvent, type RefObject, useId, useRef, useState } from 'react';
import type { DescribeReply } from '../../core/contract/describe';
import { describeSentence } from '../client/describe';
import { Alert } from './alert';

export interface DescribeTimerProps {
  /** The sentence was read: fill the forms with it (nothing is saved until Save Timer). */
  onDescribed: (reply: DescribeReply) => void;
  /** The sentence field: the Set Timer panel's first field, focused when it opens. */
  field?: RefObject<HTMLInputElement | null>;
}

/**
 * "Describe it": a timer in one sentence, read into the Set Timer form (and the question and website above)
 * for the person to check and save. A refusal or what was not understood is said here, never guessed.
 */
export function DescribeTimer({ onDescribed, field }: DescribeTimerProps) {
  const id = useId();
  const [sentence, setSentence] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [notes, setNotes] = useState<string[] | null>(null);
  const inFlight = useRef(false);

  async function describe(event: FormEvent) {
    event.preventDefault();
    if (inFlight.current || !sentence.trim()) return;
    inFlight.current = true;
    setBusy(true);
    setFailure(null);
    setNotes(null);
    const outcome = await describeSentence(sentence.trim());
    inFlight.current = false;
    setBusy(false);
    if (!outcome.ok) {
      setFailure(outcome.message);
      return;
    }
    setNotes(outcome.reply.notes);
    onDescribed(outcome.reply);
  }

  return (
    <form className="describe-timer" onSubmit={describe} aria-busy={busy}>
      <div className="field">
        <label htmlFor={`${id}-sentence`}>Describe it</label>
        <div className="describe-timer__row">
          <input
            ref={field}
            id={`${id}-sentence`}
            type="text"
            value={sentence}
            aria-describedby={`${id}-hint`}
            placeholder="Fridays 8 am, AI meetups"
            onChange={(e) => setSentence(e.target.value)}
          />
          <button type="submit" className="button button--secondary" disabled={busy || !sentence.trim()}>
            {busy ? 'Reading...' : 'Fill in the form'}
          </button>
        </div>
        <p className="field__hint" id={`${id}-hint`}>
          For example “every Friday at 8 am, AI meetups within 20 km of Berlin, in person, next two weeks”, in English or German. Fills in
          the form below to check; nothing is saved until you press Save Timer.
        </p>
      </div>
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      {notes ? (
        <Alert tone="success">
          Filled in from your sentence: check the form and the question above, then Save Timer.
          {notes.length ? (
            <ul className="describe-timer__notes">
              {notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
    </form>
  );
}
