import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's Chromium, never a downloaded one; flags keep it off this machine's closed network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

/**
 * A page in its own context with its console errors collected. Tests pin the locale (en-GB: "09:00", en-US:
 * "9:00 AM") when they check what the page writes.
 */
export async function openPage(browser: Browser, url: string, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ locale: 'en-GB', ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // Chromium's "Failed to load resource" names no address; the message's location is the request's.
    const failedLoad = msg.text().startsWith('Failed to load resource:') && msg.location().url;
    errors.push(failedLoad ? `${msg.text()} (${msg.location().url})` : msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(url);
  return { page, errors };
}

/**
 * Chromium logs every non-ok reply as a console error ("Failed to load resource: ... 402"); a test that
 * provokes one on purpose checks that nothing else went wrong.
 */
export const unexpectedErrors = (errors: string[]) => errors.filter((e) => !e.startsWith('Failed to load resource:'));

const SHOTS = process.env.SCREENSHOT_DIR;

/** A full-page screenshot into SCREENSHOT_DIR, only when asked for (SCREENSHOT_DIR=/tmp/shots npx vitest ...). */
export async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** A screenshot of what the viewport shows into SCREENSHOT_DIR, only when asked for: a page too tall to take whole. */
export async function shotInView(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}
