import { describe, expect, it } from 'vitest';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { browserSuite, openSignedInHome } from './support/browser-suite';

describe('the sample sites listed for make dev, searched in Chromium', () => {
  const suite = browserSuite();

  it('shows upcoming events, not only past ones, on the sample page and calendar dated from today', async () => {
    const { page, errors } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    for (const [path, count] of [
      ['/sites/upcoming/berlin-ai.html', 3],
      ['/sites/upcoming/meetups.ics', 3],
    ] as const) {
      await page.getByLabel('Your Question').fill('AI events in Berlin');
      await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}${path}`);
      await page.getByRole('button', { name: 'Search Events' }).click();
      const list = page.getByRole('region', { name: 'Events in this answer' });
      const cards = list.getByRole('listitem');
      await list
        .getByRole('link', { name: path.endsWith('.ics') ? /PyData Berlin/ : /Applied ML Summit/ })
        .first()
        .waitFor();
      expect(await cards.count(), path).toBe(count);
      // Every event is 7 days or more ahead of the day of the read: none is shown as past.
      expect(await list.getByText('Past', { exact: true }).count(), path).toBe(0);
      await shot(page, `sample-site-${path.endsWith('.ics') ? 'ics' : 'html'}-1280`);
    }
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
