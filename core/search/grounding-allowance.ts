import type { GeminiUsage } from '../gemini/usage';

/**
 * The Google Search queries one search may pay for (`GEMINI_MAX_SEARCH_QUERIES`). Google offers no limit on the
 * queries one request runs, so the first grounded call is always sent; once the search's calls have run the
 * ceiling, its later calls (a retry, the extraction) go without the Google Search tool, and the answer says so.
 */
export class GroundingAllowance {
  private used = 0;
  /** A call that would have searched was sent without the tool. */
  withheld = false;

  constructor(readonly ceiling: number) {}

  /** Whether a call that wants grounding may have it now; remembers a refusal for the answer's note. */
  grant(wanted: boolean): boolean {
    if (!wanted) return false;
    if (this.used < this.ceiling) return true;
    this.withheld = true;
    return false;
  }

  spend(usage: GeminiUsage): void {
    this.used += usage.groundingQueries;
  }
}

/** The line an answer ends with when a call of its search went without Google Search because of the ceiling. */
export const groundingWithheldNote = (ceiling: number) =>
  `\n\nNote: this answer did not search the web again, because this search had already run its ${ceiling} web ${
    ceiling === 1 ? 'search' : 'searches'
  }. Check dates on the events' own pages.\n`;
