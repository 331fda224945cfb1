import { CHANNEL_LABELS, type ChannelKindWire } from '../../contract/channel-kinds';

/**
 * "… and post it to Slack", "send them to our Discord", "und poste es in Teams", "push it to my phone via ntfy":
 * where the timer's news should also go. Only the service is read here; its address is a secret the person
 * pastes (the form asks for it), never something a sentence or a model could make up.
 */
const SERVICE = String.raw`(slack|discord|(?:microsoft\s+|ms\s+)?teams|ntfy)`;
const ASK = new RegExp(
  String.raw`[,;]?\s*(?:\b(?:and|und)\s+)?(?:\b(?:also|auch)\s+)?\b(?:post|send|share|push|message|notify|poste?n?|schicke?n?|sende?n?|teile?n?)\b` +
    String.raw`(?:\s+(?:it|them|this|that|me|us|the\s+team|the\s+news|es|sie|das|mir|uns))?` +
    String.raw`(?:\s+(?:to\s+my\s+phone|aufs\s+handy))?` +
    String.raw`\s+(?:to|on|in|into|via|through|an|nach|auf|über|ueber|per)\s+(?:my\s+|our\s+|the\s+|a\s+|mein(?:en|em)?\s+|unse?r(?:en|em)?\s+|den\s+|dem\s+)?` +
    SERVICE +
    String.raw`(?:\s+(?:channel|kanal|topic))?\b`,
  'iu',
);

export interface ChannelAsk {
  kind: ChannelKindWire;
  /** The sentence without the words that asked for the channel. */
  rest: string;
}

export function channelAsked(sentence: string): ChannelAsk | null {
  const m = ASK.exec(sentence);
  if (!m) return null;
  const service = m[1]!.toLowerCase();
  const kind: ChannelKindWire = service.endsWith('teams') ? 'teams' : (service as ChannelKindWire);
  const rest = `${sentence.slice(0, m.index)} ${sentence.slice(m.index + m[0].length)}`.replace(/\s+/g, ' ').trim();
  return { kind, rest };
}

/** The note that asks for the address once the form is filled in. */
export const channelNote = (kind: ChannelKindWire) =>
  `You asked to post it to ${CHANNEL_LABELS[kind]}: paste its address in the ${CHANNEL_LABELS[kind]} address field below the schedule; the timer posts there once saved.`;
