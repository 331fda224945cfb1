/**
 * What an answer that failed after it began ends with: the streamed reply's last line, and the page's showing of
 * a failed search's kept part when it is opened again. Never stored: the search keeps its part and its error.
 */
export const incompleteAnswerNote = (message: string) => `\n\n[The answer is incomplete: ${message}]\n`;
