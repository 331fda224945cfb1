import { describe, expect, it } from 'vitest';
import { Island } from './island';
import { renderPage } from './render';

const manifest = {
  islands: { 'plan-picker': { file: '/assets/pp.js', imports: ['/assets/chunk.js'] }, home: { file: '/assets/h.js', imports: [] } },
  css: '/assets/s.css',
};

describe('renderPage', () => {
  it('ships no script for a page without islands', () => {
    const html = renderPage(<p>static</p>, { title: 't', description: 'd', externalScripts: ['https://x/gsi'] }, manifest);
    expect(html).not.toContain('<script');
    expect(html).toContain('/assets/s.css');
  });

  it('links only the islands the page renders, with their chunks preloaded and props escaped', () => {
    const html = renderPage(
      <Island
        name="plan-picker"
        props={{
          initial: { view: 'subscription', loggedIn: false, billing: null },
          checkout: { success: false, sessionId: '</script>', canceled: false },
          google: { clientId: 'c', gsiUrl: 'https://x/gsi' },
        }}
      />,
      { title: 't', description: 'd' },
      manifest,
    );
    expect(html).toContain('<script type="module" src="/assets/pp.js">');
    expect(html).toContain('<link rel="modulepreload" href="/assets/chunk.js">');
    expect(html).not.toContain('/assets/h.js');
    expect(html).toContain('data-island="plan-picker"');
    expect(html).not.toContain('"</script>"');
  });
});
