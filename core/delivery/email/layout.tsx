import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

// Mail clients drop <style> blocks and external CSS, so every style is inline.
export const text = { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif', color: '#1c2033', lineHeight: 1.5 };
export const muted = { color: '#5b6278', fontSize: '14px' };
export const link = { color: '#3527d6' };
/** A link drawn as the page's primary button (mail clients keep inline styles on an <a>). */
export const buttonLink = {
  display: 'inline-block',
  background: '#4a3aff',
  color: '#ffffff',
  fontWeight: 600,
  textDecoration: 'none',
  padding: '10px 18px',
  borderRadius: '10px',
};

/** The frame of every message: a heading, the content, and a footer saying why it came and how to stop it. */
export function EmailLayout(props: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
      </head>
      <body style={{ ...text, margin: 0, padding: '20px 10px', background: '#f6f7fb' }}>
        <div style={{ maxWidth: '600px', margin: '0 auto' }}>
          {/* The product's name, as on the page, so the message is known at a glance. */}
          <div style={{ fontWeight: 700, fontSize: '16px', margin: '0 0 12px 4px' }}>
            <span
              style={{
                display: 'inline-block',
                width: '14px',
                height: '14px',
                borderRadius: '4px',
                background: '#4a3aff',
                margin: '0 8px -1px 0',
              }}
            />
            Event Finder
          </div>
        </div>
        <div
          style={{
            maxWidth: '600px',
            margin: '0 auto',
            background: '#ffffff',
            borderRadius: '14px',
            padding: '20px',
            border: '1px solid #dde1ec',
          }}
        >
          {props.children}
          <hr style={{ border: 0, borderTop: '1px solid #dde1ec', margin: '24px 0 12px' }} />
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
