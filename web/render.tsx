import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { IslandCollector, IslandContext } from './island';
import type { Manifest } from './manifest';

export interface Document {
  title: string;
  description: string;
  /** Extra scripts the page needs, e.g. the Google sign-in client (loaded async). */
  externalScripts?: string[];
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// Inline, so the page needs no extra request and the browser logs no 404 for /favicon.ico.
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%234a3aff'/%3E%3Cpath d='M9 11h14M9 16h14M9 21h9' stroke='white' stroke-width='3' stroke-linecap='round'/%3E%3C/svg%3E";

/** Renders a page to a full HTML document; a page that renders no island ships no JavaScript. */
export function renderPage(body: ReactElement, doc: Document, manifest: Manifest): string {
  const collector = new IslandCollector();
  const html = renderToString(<IslandContext.Provider value={collector}>{body}</IslandContext.Provider>);
  const modules = new Set<string>();
  const preloads = new Set<string>();
  for (const name of collector.used) {
    const entry = manifest.islands[name];
    if (!entry) throw new Error(`Island ${name} is missing from the build manifest; run make build`);
    modules.add(entry.file);
    for (const chunk of entry.imports) preloads.add(chunk);
  }
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeAttr(doc.title)}</title>`,
    `<meta name="description" content="${escapeAttr(doc.description)}">`,
    '<meta name="color-scheme" content="light">',
    `<link rel="icon" href="${FAVICON}">`,
    manifest.css ? `<link rel="stylesheet" href="${manifest.css}">` : '',
    ...[...preloads].map((href) => `<link rel="modulepreload" href="${href}">`),
    ...[...modules].map((src) => `<script type="module" src="${src}"></script>`),
    ...(modules.size ? (doc.externalScripts ?? []) : []).map((src) => `<script src="${escapeAttr(src)}" async defer></script>`),
  ]
    .filter(Boolean)
    .join('\n');
  return `<!doctype html>\n<html lang="en">\n<head>\n${head}\n</head>\n<body>\n${html}\n</body>\n</html>\n`;
}
