import type { TimerInput } from '../../core/timers/input';

/**
 * A valid daily timer, as a POST /api/schedule body or a createTimer/insertTimer input. Tests that only need
 * some timer take it as is; a test whose point is a field (its question, zone, website) says so in overrides.
 */
export function dailyTimer(overrides: Partial<TimerInput> = {}): TimerInput {
  return {
    scheduleType: 'daily',
    time: '09:00',
    weekday: null,
    ques: 'AI conferences',
    web: '',
    timezone: 'Europe/Berlin',
    ...overrides,
  };
}
