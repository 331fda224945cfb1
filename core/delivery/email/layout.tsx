import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

// Mail clients drop <style> blocks and external CSS, so every style is inline.
export const text = { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif', color: '#1a1f36', lineHeight: 1.5 };
export const muted = { color: '#697386', fontSize: '14px' };
export const link = { color: '#4a3aff' };

/** The frame of every message: a heading, the content, and a footer saying why it came and how to stop it. */
export function EmailLayout(props: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
      </head>
      <body style={{ ...text, margin: 0, padding: '24px 12px', background: '#f6f9fc' }}>
        <div style={{ maxWidth: '600px', margin: '0 auto', background: '#ffffff', borderRadius: '12px', padding: '24px' }}>
          {props.children}
          <hr style={{ border: 0, borderTop: '1px solid #e3e8ee', margin: '24px 0 12px' }} />
          <div style={muted}>{props.footer}</div>
        </div>
      </body>
    </html>
  );
}

/** Static HTML for a message (no React attributes, no hydration markers). */
export function renderEmailHtml(element: ReactNode): string {
  return `<!doctype html>${renderToStaticMarkup(element)}`;
}
