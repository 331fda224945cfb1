import { ASK_EMPTY_QUESTION, type AskRequest } from '../../core/contract/ask';
import { controlCharacterMessage, hasControlCharacters } from '../../core/control-characters';
import { checkQuestion } from '../../core/question-input';
import type { TimerFilters } from '../../core/contract/timer-filters';
import { resolveFilters } from '../../core/filters/resolve';
import { ianaTimeZone } from '../../core/time/canonical-zone';
import { isTimeZone } from '../../core/time/time-zone';
import { ApiError } from '../errors';

export interface AskInput {
  ques: string;
  web: string;
  timezone: string;
  filters: TimerFilters | null;
}

/** The server's rules for a POST /api/ask body (the page checks nothing, spec section 5). */
export function parseAskInput(body: AskRequest): AskInput {
  const check = checkQuestion(body.ques, body.web, ASK_EMPTY_QUESTION);
  if (!check.ok) throw new ApiError(400, check.message);
  const { timezone } = body;
  if (timezone !== undefined && hasControlCharacters(timezone, 'single-line'))
    throw new ApiError(400, controlCharacterMessage('time zone'));
  // Checked before the search is admitted to its credit: a zone we cannot read would quietly become UTC.
  if (timezone !== undefined && timezone !== '' && !isTimeZone(timezone))
    throw new ApiError(
      400,
      `The time zone "${String(timezone).slice(0, 64)}" is not one we know. Send an IANA name such as Europe/Berlin, or leave it out for UTC.`,
    );
  const zone = timezone ? ianaTimeZone(timezone) : { ok: true as const, zone: 'UTC' };
  if (!zone.ok) throw new ApiError(400, zone.message);
  const filters = resolveFilters(body.filters);
  if (!filters.ok) throw new ApiError(400, filters.message);
  return { ques: check.ques, web: check.web, timezone: zone.zone, filters: filters.filters };
}
