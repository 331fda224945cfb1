import * as z from 'zod/mini';

/**
 * The bodies a timer's channels post, as core/delivery/channels/ writes them: the preview carries them as
 * they are sent, so these schemas name every field those modules write (a field left out here would be
 * dropped from the preview a client parses).
 */

const slackText = z.object({ type: z.enum(['plain_text', 'mrkdwn']), text: z.string(), emoji: z.optional(z.boolean()) });

/** A Slack incoming webhook's JSON: Block Kit blocks and the notification text. */
export const slackBodySchema = z.object({
  text: z.string().check(z.describe('What Slack shows in notifications and where blocks cannot be shown.')),
  blocks: z.array(
    z.object({
      type: z.enum(['header', 'context', 'section', 'divider']),
      text: z.optional(slackText),
      elements: z.optional(z.array(slackText)),
    }),
  ),
});

/** A Discord webhook's JSON: a short content, embeds with one field per event, nobody pinged. */
export const discordBodySchema = z.object({
  content: z.string(),
  allowed_mentions: z.object({ parse: z.array(z.string()) }),
  embeds: z.array(
    z.object({
      title: z.optional(z.string()),
      url: z.optional(z.string()),
      description: z.optional(z.string()),
      color: z.optional(z.number()),
      fields: z.optional(z.array(z.object({ name: z.string(), value: z.string(), inline: z.optional(z.boolean()) }))),
      footer: z.optional(z.object({ text: z.string() })),
    }),
  ),
});

const cardText = z.object({
  type: z.literal('TextBlock'),
  text: z.string(),
  wrap: z.boolean(),
  size: z.optional(z.string()),
  weight: z.optional(z.string()),
  spacing: z.optional(z.string()),
  isSubtle: z.optional(z.boolean()),
  separator: z.optional(z.boolean()),
});

/** A Teams Workflows webhook's JSON: a message with one Adaptive Card. */
export const teamsBodySchema = z.object({
  type: z.literal('message'),
  attachments: z.array(
    z.object({
      contentType: z.literal('application/vnd.microsoft.card.adaptive'),
      contentUrl: z.null(),
      content: z.object({
        $schema: z.string(),
        type: z.literal('AdaptiveCard'),
        version: z.string(),
        body: z.array(
          z.union([cardText, z.object({ type: z.literal('Container'), separator: z.optional(z.boolean()), items: z.array(cardText) })]),
        ),
        actions: z.array(z.object({ type: z.literal('Action.OpenUrl'), title: z.string(), url: z.string() })),
      }),
    }),
  ),
});

/** An ntfy message's headers as sent (an access token shown masked). */
export const ntfyHeadersSchema = z.object({
  'content-type': z.string(),
  title: z.string().check(z.describe('The notification’s title; RFC 2047 encoded (=?UTF-8?B?…?=) when it is not plain ASCII.')),
  tags: z.string(),
  click: z.string().check(z.describe('The page a tap opens: the run in Event Finder.')),
  authorization: z.optional(
    z.string().check(z.describe('"Bearer …" and the access token’s last four characters, when the topic has one.')),
  ),
});
