/** The stand-in's deterministic answers, derived from the prompt it received (see core/search/prompt.ts). */

export interface StandinAnswer {
  text: string;
  sources: { uri: string; title: string }[];
}

interface PromptEvent {
  [field: string]: string;
}

/** The `EVENT n` blocks of the prompt's website facts, as field maps. */
export function promptEvents(prompt: string): PromptEvent[] {
  const events: PromptEvent[] = [];
  let current: PromptEvent | null = null;
  for (const line of prompt.split('\n')) {
    if (/^EVENT \d+$/.test(line.trim())) {
      current = {};
      events.push(current);
    } else if (current && /^[a-z]+: /.test(line)) {
      const i = line.indexOf(': ');
      current[line.slice(0, i)] = line.slice(i + 2);
    } else {
      current = null;
    }
  }
  return events;
}

export function answerFor(prompt: string): StandinAnswer {
  const website = /^WEBSITE: (\S+)/m.exec(prompt)?.[1];
  const question = /^QUESTION: (.*)$/m.exec(prompt)?.[1] ?? 'your question';
  if (website) {
    const events = promptEvents(prompt);
    if (events.length === 0) {
      return {
        text: `I read ${website} but it lists no structured events.\nThe page text did not name a specific event matching "${question}".\nTry the page that lists the events directly.\n`,
        sources: [],
      };
    }
    const lines = [`I found ${events.length} events on ${website}:`, ''];
    for (const e of events) {
      lines.push(e.name ?? 'Untitled event');
      lines.push(`Date: ${e.start ?? 'not given'}${e.end ? ` to ${e.end}` : ''}`);
      lines.push(`Place: ${e.place ?? 'not given'}`);
      lines.push(`Link: ${e.link ?? website}`);
      lines.push('');
    }
    return { text: lines.join('\n'), sources: [] };
  }
  return {
    text: [
      `Here are events that match "${question}":`,
      '',
      'AI Summit Berlin',
      'Date: 10 to 11 June',
      'Place: Estrel Congress Center, Berlin',
      'Link: https://example.com/ai-summit-berlin',
      '',
      'Berlin Machine Learning Meetup',
      'Date: every second Tuesday, 19:00',
      'Place: Factory Berlin',
      'Link: https://example.com/berlin-ml-meetup',
      '',
    ].join('\n'),
    sources: [
      { uri: 'https://example.com/ai-summit-berlin', title: 'AI Summit Berlin' },
      { uri: 'https://example.com/berlin-ml-meetup', title: 'Berlin Machine Learning Meetup' },
    ],
  };
}

/** Splits an answer into line-sized pieces, the way a model streams a few tokens at a time. */
export function chunksOf(text: string): string[] {
  return text.split(/(?<=\n)/).filter(Boolean);
}
