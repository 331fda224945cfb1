/**
 * The sentence an answer ends with when the user's website could not be read within the reading pool's limits
 * (core/reading): the answer was made without the website's own events.
 */
export const websiteUnreadNote = (url: string) =>
  `\n\nNote: your website (${new URL(url).host}) could not be read in time, so this answer does not use its own event listings.\n`;
