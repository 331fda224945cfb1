import { SearchError } from '../../core/search-error';
import { checkWebsiteAddress } from '../../core/website/fetch';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';

/**
 * A timer's website by the address rules each run applies (the private-address guard), so a timer that could
 * never read its website is neither saved nor offered in a described timer: 400 with the guard's sentence.
 */
export async function checkTimerWebsite(deps: Pick<AppDeps, 'config' | 'resolve'>, web: string): Promise<void> {
  if (!web) return;
  await checkWebsiteAddress(web, { allow: deps.config.websiteFetchAllow, resolve: deps.resolve }).catch((err: unknown) => {
    throw err instanceof SearchError ? new ApiError(400, err.message) : err;
  });
}
