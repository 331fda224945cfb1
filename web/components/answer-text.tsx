import { Fragment, useEffect, useState } from 'react';
import type Linkify from 'linkify-react';
import type { AnswerCorrection } from '../../core/contract/answer-correction';

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

/** The corrections that stand in this text as they were found in the stored answer (the streamed text is the same). */
const standing = (text: string, corrections: AnswerCorrection[]) => corrections.filter((c) => text.slice(c.start, c.end) === c.said);

/**
 * Plain answer text with its web addresses as links (linkify's tokenizer, not a hand-written pattern), and each
 * date its checked events contradict struck where it stands with the checked date beside it; the text itself
 * is the answer as written.
 */
export function AnswerText({ text, corrections = [] }: { text: string; corrections?: AnswerCorrection[] }) {
  const Linkify = useLinkify(text.length > 0);
  const linked = (piece: string) => (Linkify ? <Linkify options={LINK_OPTIONS}>{piece}</Linkify> : piece);
  const marks = standing(text, corrections);
  if (marks.length === 0) return linked(text);
  let at = 0;
  const parts = marks.map((c) => {
    const before = text.slice(at, c.start);
    at = c.end;
    return (
      <Fragment key={c.start}>
        {linked(before)}
        <span className="answer-correction">
          <del>
            <span className="visually-hidden">The answer said </span>
            {c.said}
          </del>{' '}
          <ins>
            <span className="visually-hidden">checked date: </span>
            <span aria-hidden="true">✓ </span>
            {c.checked}
          </ins>
        </span>
      </Fragment>
    );
  });
  return (
    <>
      {parts}
      {linked(text.slice(at))}
    </>
  );
}
