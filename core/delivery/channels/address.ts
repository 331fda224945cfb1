import { CHANNEL_ADDRESS_HELP, CHANNEL_LABELS } from '../../contract/channel-kinds';
import { DeliveryError } from '../errors';
import { checkWebhookUrl, type WebhookGuard } from '../webhook';
import type { ChannelKind } from './channel';

const TOKEN_MAX = 200;

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
  const url = rawUrl.trim();
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
