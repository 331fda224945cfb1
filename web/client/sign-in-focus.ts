/**
 * After a sign-in the search screen replaces Google's button, which had focus: keyboard and screen-reader
 * users continue in the question field. Set by the sign-in, taken once by the search screen when it mounts.
 */
let wanted = false;

export function focusSearchAfterSignIn(): void {
  wanted = true;
}

/** True once after a sign-in asked for it. */
export function takeSearchFocusRequest(): boolean {
  const was = wanted;
  wanted = false;
  return was;
}
