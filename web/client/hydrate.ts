import type { ComponentType } from 'react';
import { createElement } from 'react';
import { hydrateRoot } from 'react-dom/client';

/** Hydrates every server-rendered instance of one island with the props serialised beside it. */
export function hydrateIslands<P extends object>(name: string, Component: ComponentType<P>): void {
  const roots = document.querySelectorAll<HTMLElement>(`[data-island="${CSS.escape(name)}"]`);
  for (const root of roots) {
    const id = root.dataset.islandId;
    const script = document.querySelector(`script[data-island-props="${id}"]`);
    // The server writes the props next to every island it renders (web/island.tsx); they are this island's.
    const props: P = JSON.parse(script?.textContent || '{}');
    // Must match the server's per-island prefix so useId values agree and hydration does not mismatch.
    hydrateRoot(root, createElement(Component, props), { identifierPrefix: `${name}-${id}-` });
  }
}
