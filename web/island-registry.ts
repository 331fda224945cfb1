import type { ComponentProps, ComponentType } from 'react';
import Home from './islands/home';
import PlanPicker from './islands/plan-picker';

/**
 * The one list of islands: the server renders them from here and the build (web/build.ts) makes one entry per
 * key, importing web/islands/<key>.tsx. A new island is a file in web/islands/ plus a line here.
 */
export const ISLANDS = {
  home: Home,
  'plan-picker': PlanPicker,
} satisfies Record<string, ComponentType<never>>;

export type IslandName = keyof typeof ISLANDS;
export type IslandProps<N extends IslandName> = ComponentProps<(typeof ISLANDS)[N]>;
export const ISLAND_NAMES = Object.keys(ISLANDS) as IslandName[];
