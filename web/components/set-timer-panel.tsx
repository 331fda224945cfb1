import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorText } from '../client/http';
import { saveTimer, type TimerDraft } from '../client/timers';
import { addTimerChannel } from '../client/timer-channels';
import { CHANNEL_ADDRESS_HELP, CHANNEL_LABELS, type ChannelKindWire } from '../../core/contract/channel-kinds';
import { Alert } from './alert';
import type { DescribeReply } from '../../core/contract/describe';
import { draftOf, EMPTY_FILTER_DRAFT, type FilterDraft, filtersOf } from '../client/timer-filters';
import { DescribeTimer } from './describe-timer';
import { LazyFilterFields } from './lazy-filters';
import { ScheduleFields, timerSavedMessage } from './schedule-fields';
import { SetTimerHeading } from './set-timer-heading';

export interface SetTimerPanelProps {
  /** The question and website currently typed in the search form; the timer saves them. */
  ques: string;
  web: string;
  /** The search form's filters: a new timer starts with them. */
  filters?: FilterDraft;
  /** Cancel: close the panel. */
  onClose: () => void;
  /** Saved: close the panel and show this confirmation beside the timer buttons. */
  onSaved: (message: string) => void;
  /** A described timer's question and website, put into the search form's fields above. */
  onQuestion?: (ques: string, web: string) => void;
}

/** The spec's Set Timer panel. A failed save keeps the panel open with what was typed and says why. */
export function SetTimerPanel({ ques, web, filters: searchFilters, onClose, onSaved, onQuestion }: SetTimerPanelProps) {
  const id = useId();
  const [draft, setDraft] = useState<TimerDraft>({ scheduleType: 'daily', time: '09:00', weekday: 'Monday' });
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // A ref, not state: a double click lands before React re-renders the disabled button.
  const inFlight = useRef(false);
  const first = useRef<HTMLSelectElement>(null);
  const timeField = useRef<HTMLInputElement>(null);
  const describeField = useRef<HTMLInputElement>(null);
  const edit = (patch: Partial<TimerDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const [filters, setFilters] = useState<FilterDraft>(searchFilters ?? EMPTY_FILTER_DRAFT);
  const [filtersOpen, setFiltersOpen] = useState(searchFilters ? filtersOf(searchFilters) !== null : false);
  // "… and post it to Slack": the service the sentence asked for, whose address the form then asks for.
  const [channel, setChannel] = useState<{ kind: ChannelKindWire; url: string } | null>(null);

  // A described timer fills the ordinary form from empty (nothing of an earlier sentence or of the form is
  // kept: a time or website the sentence does not say stays empty); the person checks it, from its first field.
  function described({ timer, channel: asked }: DescribeReply) {
    setChannel(asked ? { kind: asked.kind, url: '' } : null);
    setDraft({ scheduleType: timer.scheduleType, time: timer.time ?? '', weekday: timer.weekday ?? 'Monday' });
    setFilters(draftOf(timer.filters));
    setFiltersOpen(filtersOf(draftOf(timer.filters)) !== null);
    onQuestion?.(timer.ques, timer.web);
    first.current?.focus();
  }

  // Opening the panel moves focus to its first field, "Describe it"; Cancel, Save and Escape hand it back to Set
  // Timer (EventSearch).
  useEffect(() => describeField.current?.focus(), []);

  function onKey(event: KeyboardEvent) {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      onClose();
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (inFlight.current) return;
    // A time field left empty (or half filled, which the browser reports as empty) is said in the field's terms,
    // whichever clock the browser shows.
    if (!draft.time) {
      setFailure('❌ Error saving timer: Please choose a time for the timer to run.');
      timeField.current?.focus();
      return;
    }
    inFlight.current = true;
    setSaving(true);
    setFailure(null);
    try {
      const timerId = await saveTimer(draft, { ques, web }, filtersOf(filters));
      const url = channel?.url.trim();
      if (channel && url && timerId !== null) {
        const added = await addTimerChannel(timerId, { kind: channel.kind, url });
        const label = CHANNEL_LABELS[channel.kind];
        onSaved(
          added.ok
            ? `${timerSavedMessage(draft)} It also posts to ${label}.`
            : `${timerSavedMessage(draft)} The ${label} channel was not added: ${added.message} Add it in Manage Timers → Notifications.`,
        );
        return;
      }
      onSaved(timerSavedMessage(draft));
    } catch (err) {
      setFailure(`❌ Error saving timer: ${errorText(err)}`);
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  }

  return (
    <section className="subpanel timer-form" aria-labelledby={`${id}-title`} onKeyDown={onKey}>
      <SetTimerHeading titleId={`${id}-title`} />
      <DescribeTimer onDescribed={described} field={describeField} />
      <form onSubmit={save} aria-busy={saving}>
        <ScheduleFields id={id} draft={draft} edit={edit} first={first} time={timeField} />
        <LazyFilterFields value={filters} open={filtersOpen} onChange={(patch) => setFilters((f) => ({ ...f, ...patch }))} />
        {channel ? (
          <div className="field">
            <label htmlFor={`${id}-channel`}>{CHANNEL_LABELS[channel.kind]} address</label>
            <input
              id={`${id}-channel`}
              type="url"
              inputMode="url"
              autoComplete="off"
              value={channel.url}
              aria-describedby={`${id}-channel-hint`}
              onChange={(e) => setChannel({ ...channel, url: e.target.value })}
            />
            <p className="field__hint" id={`${id}-channel-hint`}>
              Paste {CHANNEL_ADDRESS_HELP[channel.kind]}. Leave it empty to add it later in Manage Timers.
            </p>
          </div>
        ) : null}
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <div className="actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving...' : 'Save Timer'}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
