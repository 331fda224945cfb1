import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from '../../dev/harness/browser';
import { startTestStack, type StackOptions, type TestStack } from '../../dev/harness/stack';
import { createSignedInUser } from '../../dev/harness/users';

export interface BrowserSuite {
  stack: TestStack;
  browser: Browser;
}

/** For a describe block: a test stack and Chromium, started before its tests and closed after them. */
export function browserSuite(options?: StackOptions): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    [suite.stack, suite.browser] = await Promise.all([startTestStack(options), launchBrowser()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.stack?.close();
  });
  return suite;
}

/** A new signed-in user on the home screen, both islands hydrated, the search form in view. */
export async function openSignedInHome(suite: BrowserSuite, options: BrowserContextOptions = {}) {
  const { user, token, cookie } = await createSignedInUser(suite.stack.db.sql);
  const watched: WatchedPage = await openPage(suite.browser, 'about:blank', options);
  await watched.page.context().addCookies([{ name: 'ef_session', value: token, url: suite.stack.url }]);
  await watched.page.goto(`${suite.stack.url}/`);
  await watched.page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
  await watched.page.getByRole('button', { name: 'Back' }).click();
  await watched.page.getByLabel('Your Question').waitFor({ state: 'visible' });
  return { ...watched, user, cookie, token };
}
