import { CHANNEL_ADDRESS_HELP, CHANNEL_LABELS } from '../../contract/channel-kinds';
import { DeliveryError } from '../errors';
import { checkWebhookUrl, type WebhookGuard } from '../webhook';
import type { ChannelKind } from './channel';

const TOKEN_MAX = 200;

/**
 * A Teams Workflows address is signed in its query (`sig=…`): Teams refuses a post without it (401
 * DirectApiAuthorizationRequired), which is what a workflow whose trigger only lets signed-in users run it gives.
 * An address copied out of an HTML page or email carries `&amp;` for `&`, which breaks that signature.
 */
function teamsAddress(url: string): string {
  const unescaped = url.replaceAll('&amp;', '&');
  const parsed = URL.parse(unescaped);
  if (parsed && !parsed.searchParams.get('sig')) {
    throw new DeliveryError(
      'This Teams address has no signature (sig=…) at its end, so Teams would refuse every post. In the workflow, set its trigger’s “Who can trigger the flow?” to “Anyone”, save it, and copy the whole address again.',
      false,
    );
  }
  return unescaped;
}

/**
 * Checks an address for a channel at save time: a webhook's rules (http(s), no credentials, public addresses
 * only, WEBHOOK_ALLOW for local stand-ins) and a path past the host, since every service's address names its
 * channel there. ntfy alone takes an access token (`tk_…`). Throws DeliveryError with a sentence for the owner.
 */
export async function checkChannelAddress(
  kind: ChannelKind,
  rawUrl: string,
  rawToken: string | null,
  guard: WebhookGuard,
): Promise<{ url: string; token: string | null }> {
  const trimmed = rawUrl.trim();
  const url = kind === 'teams' && trimmed ? teamsAddress(trimmed) : trimmed;
  const token = rawToken?.trim() || null;
  if (!url) throw new DeliveryError(`Paste ${CHANNEL_ADDRESS_HELP[kind]}.`, false);
  if (token && kind !== 'ntfy') throw new DeliveryError('Only ntfy channels take an access token; leave token out for this one.', false);
  if (token && (token.length > TOKEN_MAX || !/^[\x21-\x7e]+$/.test(token))) {
    throw new DeliveryError('The ntfy access token looks wrong: copy it as ntfy shows it (it starts with tk_).', false);
  }
  try {
    const { url: parsed } = await checkWebhookUrl(url, guard, CHANNEL_LABELS[kind]);
    if (parsed.pathname.replace(/\/+$/, '') === '')
      throw new DeliveryError(`This address has no path. Paste ${CHANNEL_ADDRESS_HELP[kind]}.`, false);
  } catch (err) {
    if (err instanceof DeliveryError && err.retryable) {
      throw new DeliveryError(`${err.message} Paste ${CHANNEL_ADDRESS_HELP[kind]}.`, false);
    }
    throw err;
  }
  return { url, token };
}
