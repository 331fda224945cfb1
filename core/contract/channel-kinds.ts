/** The chat and push services, their names and where their addresses come from: no zod, so the page's islands can import it. */

/** The services a timer's channel posts to (core/delivery/channels/channel.ts keeps the same list). */
export const CHANNEL_KIND_WIRE = ['slack', 'discord', 'teams', 'ntfy'] as const;

export type ChannelKindWire = (typeof CHANNEL_KIND_WIRE)[number];

/** Each service's name as people know it. */
export const CHANNEL_LABELS: Record<ChannelKindWire, string> = {
  slack: 'Slack',
  discord: 'Discord',
  teams: 'Microsoft Teams',
  ntfy: 'ntfy',
};

/** Where each service's address comes from: the page's hint and the sentence that asks for it again. */
export const CHANNEL_ADDRESS_HELP: Record<ChannelKindWire, string> = {
  slack:
    'a Slack incoming webhook address (https://hooks.slack.com/services/…): in Slack, add the Incoming Webhooks app to the channel and copy its Webhook URL',
  discord:
    'a Discord webhook address (https://discord.com/api/webhooks/…): in the channel’s settings, Integrations → Webhooks → New Webhook → Copy Webhook URL',
  teams:
    'a Teams Workflows webhook address: in the channel’s … menu, Workflows → “Post to a channel when a webhook request is received”, let “Anyone” trigger it, and copy the address it shows',
  ntfy: 'an ntfy topic address (https://ntfy.sh/your-topic, or your own server’s): pick a topic name that is hard to guess',
};
