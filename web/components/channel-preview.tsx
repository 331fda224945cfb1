import type { MessagePreview } from '../../core/contract/test-delivery';

type ChannelPreviewData = Extract<MessagePreview, { format: 'slack' | 'discord' | 'teams' | 'ntfy' }>;

/** A header as ntfy reads it: RFC 2047 (`=?UTF-8?B?…?=`) decoded, plain ASCII as it is. */
function headerWords(value: string): string {
  const encoded = /^=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  if (!encoded) return value;
  return new TextDecoder().decode(Uint8Array.from(atob(encoded[1]!), (c) => c.charCodeAt(0)));
}

/** The message's title as its service shows it first (read from the body as sent, never built again). */
function titleOf(p: ChannelPreviewData): string {
  switch (p.format) {
    case 'slack':
      return p.body.blocks.find((b) => b.type === 'header')?.text?.text ?? p.body.text;
    case 'discord':
      return p.body.content;
    case 'teams': {
      const first = p.body.attachments[0]?.content.body[0];
      // Adaptive Cards' markdown escapes, undone to show the words.
      return first?.type === 'TextBlock' ? first.text.replace(/\\([\\*_[\]])/g, '$1') : '';
    }
    case 'ntfy':
      return headerWords(p.headers.title);
  }
}

/**
 * A channel's next message as its service will receive it: its title, and the body as posted (ntfy: the text a
 * phone shows and the headers), built on the server by the code that sends it. Where it goes is in the
 * destination's heading (the service and the masked address).
 */
export function ChannelPreview({ preview }: { preview: ChannelPreviewData }) {
  return (
    <>
      <dl className="timer-preview__fields">
        <dt>Title</dt>
        <dd>{titleOf(preview)}</dd>
      </dl>
      {preview.format === 'ntfy' ? (
        <>
          <p className="timer-preview__label">The notification’s text:</p>
          <pre className="timer-preview__code">{preview.text}</pre>
          <details className="timer-preview__more">
            <summary>The headers as sent</summary>
            <pre className="timer-preview__code">
              {Object.entries(preview.headers)
                .map(([name, value]) => `${name}: ${value}`)
                .join('\n')}
            </pre>
          </details>
        </>
      ) : (
        <details className="timer-preview__more">
          <summary>The JSON body as posted</summary>
          <pre className="timer-preview__code">{JSON.stringify(preview.body, null, 2)}</pre>
        </details>
      )}
    </>
  );
}
