/**
 * A channel's address as replies show it: the service's origin and the last four characters, so a person can
 * tell two channels apart while whoever reads the reply cannot post there ("https://hooks.slack.com/…a1b2").
 */
export function maskChannelUrl(url: string): string {
  let origin = '';
  try {
    origin = new URL(url).origin;
  } catch {}
  return `${origin}/…${url.slice(-4)}`;
}
