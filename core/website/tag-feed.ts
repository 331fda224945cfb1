import type { TagListener } from './rdf-nodes';

type Attributes = Record<string, string>;

/** A reader of a page's tags as the page is parsed, in document order (see readHtml). */
export interface PageReader {
  /**
   * `underRelation`: an ancestor of the element has an RDFa rel or rev (see rdfaActsOn). `hidden`: the element
   * or an ancestor is hidden from the page's readers (see hiddenFromReaders).
   */
  open(name: string, attribs: Attributes, underRelation: boolean, hidden: boolean): void;
  text(data: string): void;
  close(): void;
  /** The page ended, or was read only up to MAX_DEPTH: elements still open are closed first. */
  end(): void;
}

/** What a streaming parser reads of a page, so the rest need not be sent to it (see rdfaFocus, microdataFocus). */
export interface FeedFocus {
  /** Whether the parser acts on an element: it and its ancestors are sent. */
  actsOn(name: string, attribs: Attributes, underRelation: boolean): boolean;
  /** Elements whose text the parser reads (with their whole subtree's). Such an element is one it acts on. */
  readsText(attribs: Attributes): boolean;
  /** Elements whose subtree's tags the parser reads too, inside a text-read element (an XML literal). */
  readsTags(attribs: Attributes): boolean;
  /**
   * Whether an element starts an item of its own (not a property of another): such an item hidden from the
   * page's readers is not sent at all, so it makes no event; a hidden property of a shown item still counts.
   */
  startsItem(attribs: Attributes, underRelation: boolean): boolean;
}

const SENT = 1;
const READS_TEXT = 2;
const READS_TAGS = 4;

/**
 * Feeds a streaming parser (rdfa-streaming-parser, microdata-rdf-streaming-parser) only what it reads, as the
 * page is parsed, with no tree. An element is sent when the parser acts on it, its open ancestors first (an
 * element that only passes context on is sent only above one that acts); text only inside a text-read
 * element; inside a tag-read one, everything. A subtree without an element the parser acts on adds no triple.
 * Inside a value, an element not sent still gives its text, so the value's text is whole.
 */
export class FocusedFeed implements PageReader {
  private readonly names: string[] = [];
  private readonly attributes: Attributes[] = [];
  /** Per open element, SENT | READS_TEXT | READS_TAGS. Sent elements are the first `sent` ones: an element is sent only after its ancestors. */
  private readonly flags: number[] = [];
  private sent = 0;
  private textOpen = 0;
  private tagsOpen = 0;
  /** Open elements of a hidden item (see FeedFocus.startsItem): none of them is sent. */
  private hiddenItem = 0;

  constructor(
    private readonly listener: TagListener,
    private readonly focus: FeedFocus,
  ) {}

  open(name: string, attribs: Attributes, underRelation: boolean, hidden: boolean): void {
    if (this.hiddenItem > 0 || (hidden && this.focus.startsItem(attribs, underRelation))) {
      this.hiddenItem++;
      return;
    }
    this.names.push(name);
    this.attributes.push(attribs);
    this.flags.push(0);
    if (this.tagsOpen > 0 || this.focus.actsOn(name, attribs, underRelation)) this.sendOpenElements();
  }

  text(data: string): void {
    if (this.textOpen > 0 && this.hiddenItem === 0) this.listener.onText(data);
  }

  close(): void {
    if (this.hiddenItem > 0) {
      this.hiddenItem--;
      return;
    }
    const flags = this.flags.pop();
    this.names.pop();
    this.attributes.pop();
    if (flags === undefined || !(flags & SENT)) return;
    this.sent--;
    if (flags & READS_TEXT) this.textOpen--;
    if (flags & READS_TAGS) this.tagsOpen--;
    this.listener.onTagClose();
  }

  end(): void {
    this.hiddenItem = 0;
    while (this.flags.length > 0) this.close();
    this.listener.onEnd();
  }

  /** Sends the open elements not yet sent: the innermost one's ancestors, then it. */
  private sendOpenElements(): void {
    for (let i = this.sent; i < this.flags.length; i++) {
      const attribs = this.attributes[i]!;
      this.listener.onTagOpen(this.names[i]!, attribs);
      let flags = SENT;
      if (this.focus.readsText(attribs)) {
        flags |= READS_TEXT;
        this.textOpen++;
      }
      if (this.focus.readsTags(attribs)) {
        flags |= READS_TAGS;
        this.tagsOpen++;
      }
      this.flags[i] = flags;
    }
    this.sent = this.flags.length;
  }
}
