import { setAppState } from './app-state';

/**
 * Where a person goes to search: the home view with the question focused, so what they type lands there. The
 * question may not be on the page yet (the search screen mounts after a sign-in); then it takes focus once,
 * when it mounts (EventSearch calls takeSearchFocusRequest).
 */
let wanted = false;

/** The question field of the search screen, when it is on the page. */
const questionField = () => document.querySelector<HTMLInputElement>('[data-view="home"] input[name="ques"]');

/** Shows the home view and puts keyboard focus in the question (now, or as soon as the search screen mounts). */
export function goToSearch(): void {
  setAppState({ view: 'home' });
  const field = questionField();
  if (field) field.focus();
  else wanted = true;
}

/** True once after goToSearch asked for focus before the question was there. */
export function takeSearchFocusRequest(): boolean {
  const was = wanted;
  wanted = false;
  return was;
}
