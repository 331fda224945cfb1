/** The browser's IANA time zone name: answers' dates and timers follow the user's own clock. */
export function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The page's host name (for calendar UIDs); none while rendering on the server. */
export function pageHost(): string | undefined {
  return typeof location === 'undefined' ? undefined : location.hostname;
}
