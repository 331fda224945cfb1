import { type ReactNode, useId } from 'react';
import { ATTENDANCE, type Attendance } from '../../core/contract/filter-values';
import type { FilterDraft } from '../client/timer-filters';

const ATTENDANCE_LABELS: Record<Attendance, string> = { both: 'In person or online', in_person: 'In person', online: 'Online' };

export interface TimerFilterFieldsProps {
  value: FilterDraft;
  onChange: (patch: Partial<FilterDraft>) => void;
  /** Open when a description set filters, or the timer has some. */
  open: boolean;
  summary?: ReactNode;
  /** Shown inside, after the fields (a Save button). */
  children?: ReactNode;
}

/** Which found events a timer keeps: date window, place and radius, attendance, words to leave out. */
export function TimerFilterFields({
  value,
  onChange,
  open,
  summary = 'Which events to keep (optional)',
  children,
}: TimerFilterFieldsProps) {
  const id = useId();
  return (
    <details className="timer-filters" open={open}>
      <summary>{summary}</summary>
      <div className="timer-form__fields timer-filters__fields">
        <div className="field">
          <label htmlFor={`${id}-window`}>When</label>
          <select id={`${id}-window`} value={value.window} onChange={(e) => onChange({ window: e.target.value as FilterDraft['window'] })}>
            <option value="any">Any date</option>
            <option value="next">In the next days</option>
            <option value="between">Between two dates</option>
          </select>
        </div>
        {value.window === 'next' ? (
          <div className="field">
            <label htmlFor={`${id}-days`}>Days ahead</label>
            <input
              id={`${id}-days`}
              type="number"
              min={1}
              max={366}
              value={value.nextDays}
              onChange={(e) => onChange({ nextDays: e.target.value })}
            />
          </div>
        ) : null}
        {value.window === 'between' ? (
          <>
            <div className="field">
              <label htmlFor={`${id}-from`}>From</label>
              <input id={`${id}-from`} type="date" value={value.from} onChange={(e) => onChange({ from: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-to`}>To</label>
              <input id={`${id}-to`} type="date" value={value.to} onChange={(e) => onChange({ to: e.target.value })} />
            </div>
          </>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-place`}>Near (city)</label>
          <input
            id={`${id}-place`}
            type="text"
            value={value.place}
            placeholder="e.g. Berlin"
            onChange={(e) => onChange({ place: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-radius`}>Within (km)</label>
          <input
            id={`${id}-radius`}
            type="number"
            min={1}
            max={1000}
            value={value.radiusKm}
            onChange={(e) => onChange({ radiusKm: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-attendance`}>Attendance</label>
          <select
            id={`${id}-attendance`}
            value={value.attendance}
            onChange={(e) => onChange({ attendance: ATTENDANCE.find((a) => a === e.target.value) ?? 'both' })}
          >
            {ATTENDANCE.map((a) => (
              <option key={a} value={a}>
                {ATTENDANCE_LABELS[a]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-exclude`}>Leave out words</label>
          <input
            id={`${id}-exclude`}
            type="text"
            value={value.exclude}
            placeholder="e.g. crypto, webinar"
            onChange={(e) => onChange({ exclude: e.target.value })}
          />
        </div>
      </div>
      {children}
    </details>
  );
}
