import { createContext, createElement, useContext, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { ISLANDS, type IslandName, type IslandProps } from './island-registry';
import { serializeForScript } from './serialize';

/** Collects the islands a page renders, so the document links only their scripts. */
export class IslandCollector {
  readonly used = new Set<IslandName>();
  private next = 0;
  nextId(): number {
    return this.next++;
  }
}

export const IslandContext = createContext<IslandCollector | null>(null);

/**
 * Renders an island in its own React root (its own useId prefix), marks its boundary for the client and
 * serialises its props next to it. Props must be JSON: they are public, so never pass secrets.
 */
export function Island<N extends IslandName>({ name, props }: { name: N; props: IslandProps<N> }) {
  const collector = useContext(IslandContext);
  if (!collector) throw new Error('<Island> must be rendered through renderPage');
  const id = collector.nextId();
  collector.used.add(name);
  // Typed per island at the call site (props: IslandProps<N>); inside, any island takes an object of props.
  const component = ISLANDS[name] as ComponentType<object>;
  const html = renderToString(createElement(component, props), {
    identifierPrefix: `${name}-${id}-`,
  });
  // Both strings are ours: the island's server render, and its props through the escaping serializer.
  return (
    <>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: React's own server render of the island, hydrated in place */}
      <div data-island={name} data-island-id={id} dangerouslySetInnerHTML={{ __html: html }} />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: serializeForScript escapes what could end the element */}
      <script type="application/json" data-island-props={id} dangerouslySetInnerHTML={{ __html: serializeForScript(props) }} />
    </>
  );
}
