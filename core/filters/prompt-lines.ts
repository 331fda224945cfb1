import type { TimerFilters } from '../contract/timer-filters';
import { type FilterContext, windowDays } from './apply';

/**
 * What the search prompt says of the filters, so the answer looks for matching events in the first place
 * (the events are filtered afterwards all the same). Its own function: the prompt's wording is core/search's.
 */
export function filterPromptLines(filters: TimerFilters | null, ctx: FilterContext): string[] {
  if (!filters) return [];
  const lines: string[] = [];
  if (filters.window) {
    const { from, to } = windowDays(filters.window, ctx);
    lines.push(`- only events taking place between ${from} and ${to}`);
  }
  if (filters.place) lines.push(`- only events within ${filters.place.radius_km} km of ${filters.place.name} (online events excepted)`);
  if (filters.attendance === 'in_person') lines.push('- only events attended in person, no online events');
  if (filters.attendance === 'online') lines.push('- only online events');
  if (filters.exclude.length) lines.push(`- leave out events about: ${filters.exclude.join(', ')}`);
  return lines.length ? ['', 'THE USER ONLY WANTS:', ...lines, 'Say where an event is and whether it is online.'] : [];
}
