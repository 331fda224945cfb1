import type { RefObject } from 'react';
import { SCHEDULE_TYPES, WEEKDAYS } from '../../core/contract/schedule-values';
import { useBilling } from '../client/app-state';
import { timerCost } from '../client/costs';
import type { TimerDraft } from '../client/timers';

export interface ScheduleFieldsProps {
  /** The form's own id prefix (useId), so two forms on one page keep their labels apart. */
  id: string;
  draft: TimerDraft;
  edit: (patch: Partial<TimerDraft>) => void;
  /** The first schedule field (Schedule Type). */
  first: RefObject<HTMLSelectElement | null>;
  /** The time field, focused when a save finds it empty. */
  time?: RefObject<HTMLInputElement | null>;
  /** An edited timer always has a time; a new one leaves an empty time to the server's sentence. */
  timeRequired?: boolean;
}

/**
 * Set Timer's schedule: type, time and (weekly) day, as the spec names them, and what the schedule costs in
 * searches; shared by Set Timer and editing.
 */
export function ScheduleFields({ id, draft, edit, first, time, timeRequired = false }: ScheduleFieldsProps) {
  const billing = useBilling();
  return (
    <>
      <div className="timer-form__fields">
        <div className="field">
          <label htmlFor={`${id}-type`}>Schedule Type</label>
          <select
            ref={first}
            id={`${id}-type`}
            aria-describedby={`${id}-cost`}
            value={draft.scheduleType}
            onChange={(e) => edit({ scheduleType: SCHEDULE_TYPES.find((t) => t === e.target.value) ?? 'daily' })}
          >
            <option value="daily">Every Day</option>
            <option value="weekly">Every Week</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-time`}>Time</label>
          <input
            ref={time}
            id={`${id}-time`}
            type="time"
            required={timeRequired}
            value={draft.time}
            onChange={(e) => edit({ time: e.target.value })}
          />
        </div>
        {draft.scheduleType === 'weekly' ? (
          <div className="field">
            <label htmlFor={`${id}-weekday`}>Day of Week</label>
            <select
              id={`${id}-weekday`}
              value={draft.weekday}
              onChange={(e) => edit({ weekday: WEEKDAYS.find((d) => d === e.target.value) ?? 'Monday' })}
            >
              {WEEKDAYS.map((day) => (
                <option key={day} value={day}>
                  {day}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      <p className="field__hint timer-form__cost" id={`${id}-cost`}>
        {timerCost(draft.scheduleType, billing)}
      </p>
    </>
  );
}

/** The spec's confirmation, with the time as it was typed: what the user set, in their own zone. */
export function timerSavedMessage(draft: TimerDraft): string {
  const on = draft.scheduleType === 'weekly' ? ` on ${draft.weekday}` : '';
  return `✅ Timer saved: ${draft.scheduleType} at ${draft.time}${on}`;
}
