import { defaultHeaders } from './default-headers';

/**
 * Marks every reply `Cache-Control: no-store` unless the route chose otherwise: these replies carry a user's
 * data (timers, credits, answers), which no browser cache or shared proxy may keep for the next person.
 */
export const noStore = () => defaultHeaders({ 'Cache-Control': 'no-store' });
