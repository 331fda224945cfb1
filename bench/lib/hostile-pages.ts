import { repeated } from '../../dev/harness/repeated-text';
/**
 * Pages shaped to find reading costs that grow faster than the page: one element or item repeated until the
 * page weighs the size asked for. Each was quadratic in a library or in the reading before it was made linear, or
 * is the densest page of its format. Reading one of these at 1 MB and at 2 MB shows whether the cost is
 * linear (about twice) or not.
 */
export interface HostileShape {
  name: string;
  contentType: 'text/html';
  page(bytes: number): string;
}

const day = (i: number) => `2026-05-${String(1 + (i % 28)).padStart(2, '0')}`;

export const HOSTILE_SHAPES: HostileShape[] = [
  {
    // microformats-parser gathered an item's properties with array spreads: 80 s for 2 MB.
    name: 'one h-event with a property per line',
    contentType: 'text/html',
    page: (bytes) =>
      repeated(
        bytes,
        '<html><body><div class="h-event"><time class="dt-start">2026-05-28T19:00</time>',
        (i) => `<p class="p-name">Show ${i}</p>`,
        '</div></body></html>',
      ),
  },
  {
    name: 'h-events',
    contentType: 'text/html',
    page: (bytes) =>
      repeated(
        bytes,
        '<html><body>',
        (i) => `<div class="h-event"><span class="p-name">Show ${i}</span><time class="dt-start">${day(i)}T19:00</time></div>`,
        '</body></html>',
      ),
  },
  {
    // rdfa-streaming-parser copied an element's whole text on each child's close: the body's, once per event.
    name: 'RDFa events',
    contentType: 'text/html',
    page: (bytes) =>
      repeated(
        bytes,
        '<html><body vocab="https://schema.org/">',
        (i) => `<div typeof="Event"><span property="name">Show ${i}</span><span property="startDate">${day(i)}T19:00</span></div>`,
        '</body></html>',
      ),
  },
  {
    name: 'one RDFa description of many tags',
    contentType: 'text/html',
    page: (bytes) =>
      repeated(
        bytes,
        '<html><body vocab="https://schema.org/"><div typeof="Event"><span property="name">Show</span>' +
          '<span property="startDate">2026-05-28T19:00</span><div property="description">',
        (i) => `<span>word ${i}</span> `,
        '</div></div></body></html>',
      ),
  },
  {
    // A page's names that Object.prototype also has, in microdata, RDFa and microformats: a reader that looked
    // them up in a plain object threw, and the page's other events were lost.
    name: 'items with names Object.prototype has',
    contentType: 'text/html',
    page: (bytes) =>
      repeated(
        bytes,
        '<html><body vocab="https://schema.org/">',
        (i) =>
          `<div itemscope itemtype="https://schema.org/Event" itemref="constructor"><span itemprop="constructor __proto__">x</span>` +
          `<span itemprop="name">Show ${i}</span></div><div typeof="Event"><span property="toString __proto__">y</span>` +
          `<span property="name">Talk ${i}</span></div><div class="h-event"><span class="p-constructor">z</span><span class="p-name">Gig ${i}</span></div>`,
        '</body></html>',
      ),
  },
  {
    name: 'microdata items',
    contentType: 'text/html',
    page: (bytes) =>
      repeated(
        bytes,
        '<html><body>',
        (i) =>
          `<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">Show ${i}</span>` +
          `<span itemprop="startDate">${day(i)}T19:00</span></div>`,
        '</body></html>',
      ),
  },
];
