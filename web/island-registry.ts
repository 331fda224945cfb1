import type { ComponentType } from 'react';
import Home from './islands/home';
import PlanPicker from './islands/plan-picker';

/** Server-side map from island file name (web/islands/<name>.tsx) to its component. */
export const ISLANDS = {
  home: Home,
  'plan-picker': PlanPicker,
} satisfies Record<string, ComponentType<any>>;

export type IslandName = keyof typeof ISLANDS;
export type IslandProps<N extends IslandName> = React.ComponentProps<(typeof ISLANDS)[N]>;
