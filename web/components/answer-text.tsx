import { useEffect, useState } from 'react';
import type Linkify from 'linkify-react';

type LinkifyComponent = typeof Linkify;

// Links open in a new tab so the answer stays on screen; rel keeps the opened site away from this page.
const LINK_OPTIONS = { target: '_blank', rel: 'noopener noreferrer', defaultProtocol: 'https' };

// linkify weighs as much as a large part of our island code: it loads with the first answer instead of
// with the page (docs/decisions/the-page.md), and until it is there the text shows without links.
let linkify: Promise<LinkifyComponent> | null = null;

function useLinkify(wanted: boolean): LinkifyComponent | null {
  const [Linkify, setLinkify] = useState<LinkifyComponent | null>(null);
  useEffect(() => {
    if (!wanted || Linkify) return;
    let live = true;
    linkify ??= import('linkify-react').then((m) => m.default);
    linkify.then(
      (component) => live && setLinkify(() => component),
      (err) => console.warn('Links in the answer are not clickable:', err),
    );
    return () => {
      live = false;
    };
  }, [wanted, Linkify]);
  return Linkify;
}

/** Plain answer text with its web addresses as links (linkify's tokenizer, not a hand-written pattern). */
export function AnswerText({ text }: { text: string }) {
  const Linkify = useLinkify(text.length > 0);
  return Linkify ? <Linkify options={LINK_OPTIONS}>{text}</Linkify> : text;
}
