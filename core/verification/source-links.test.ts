import { describe, expect, it } from 'vitest';
import { foundEvent } from '../../dev/harness/found-event';
import type { FoundEvent } from '../contract/event';
import { pagesToRead, sourceLinksOf } from './source-links';

const event = (title: string, url: string | null): FoundEvent => foundEvent({ title, starts_at: '2027-03-02T19:00:00+01:00', url });

const sources = [
  { uri: 'https://g.example/grounding-api-redirect/1', title: 'jazz.example', site: '', segments: ['Jazz Brunch\nDate: 2 March'] },
  {
    uri: 'https://g.example/grounding-api-redirect/2',
    title: 'ml.example',
    site: '',
    segments: ['Berlin ML Meetup\nDate: 2 March, 19:00'],
  },
  { uri: 'https://g.example/grounding-api-redirect/3', title: 'other.example', site: '' },
];

describe('where a model event is looked for', () => {
  it('its own link first, then the chunks whose supports name it, then the other chunks', () => {
    expect(sourceLinksOf(event('Berlin ML Meetup', 'https://meetup.example/ml'), sources)).toEqual([
      { url: 'https://meetup.example/ml', grounding: false },
      { url: 'https://g.example/grounding-api-redirect/2', grounding: true },
      { url: 'https://g.example/grounding-api-redirect/1', grounding: true },
      { url: 'https://g.example/grounding-api-redirect/3', grounding: true },
    ]);
    // A title inside another word is not named ("ML" in "HTML").
    expect(sourceLinksOf(event('ML', null), [{ uri: 'https://g.example/r/9', title: '', site: '', segments: ['HTML night'] }])).toEqual([
      { url: 'https://g.example/r/9', grounding: false },
    ]);
  });

  it('takes only Google’s redirect for a grounding hop: a chunk that links a page directly is that page', () => {
    const direct = [{ uri: 'https://ml.example/events/berlin-ml', title: 'ml.example', site: 'ml.example' }];
    expect(sourceLinksOf(event('Berlin ML Meetup', null), direct)).toEqual([
      { url: 'https://ml.example/events/berlin-ml', grounding: false },
    ]);
    const google = [{ uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC', title: 'ml.example', site: '' }];
    expect(sourceLinksOf(event('Berlin ML Meetup', null), google)[0]?.grounding).toBe(true);
  });

  it('reads each event’s best link before any second one, each link once, at most the limit', () => {
    const a = [
      { url: 'https://a', grounding: false },
      { url: 'https://shared', grounding: true },
    ];
    const b = [
      { url: 'https://shared', grounding: true },
      { url: 'https://b2', grounding: true },
    ];
    const c = [{ url: 'https://c', grounding: false }];
    expect(pagesToRead([a, b, c], 5).map((l) => l.url)).toEqual(['https://a', 'https://shared', 'https://c', 'https://b2']);
    expect(pagesToRead([a, b, c], 2).map((l) => l.url)).toEqual(['https://a', 'https://shared']);
  });
});
