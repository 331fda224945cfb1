import { describe, expect, it } from 'vitest';
import { statusInWords } from './status-words';

describe('statusInWords', () => {
  it('reads cancelled from clear markers in the languages the product reads', () => {
    // schema.org's own example eg-0171 (test/fixtures/real-world/schemaorg-eg0171-jsonld.html) titles its event so.
    expect(statusInWords('CANCELLED - Typhoon with Radiation City')).toBe('cancelled');
    expect(statusInWords('Board Meeting – CANCELLED')).toBe('cancelled');
    expect(statusInWords('(Cancelled) Council')).toBe('cancelled');
    expect(statusInWords('City Council Work Session [Canceled]')).toBe('cancelled');
    expect(statusInWords('Abgesagt: Konzert')).toBe('cancelled');
    expect(statusInWords('Chorprobe entfällt')).toBe('cancelled');
    expect(statusInWords('Concert annulé')).toBe('cancelled');
    expect(statusInWords('ANNULÉ - Marché de Noël')).toBe('cancelled');
    expect(statusInWords('Concerto (annullato)')).toBe('cancelled');
    expect(statusInWords('Cancelado: Feria del libro')).toBe('cancelled');
    expect(statusInWords('Cancelled')).toBe('cancelled');
    expect(statusInWords('*CANCELED*')).toBe('cancelled');
    expect(statusInWords('CANCELLED Board of Education Meeting')).toBe('cancelled');
  });

  it('reads postponed and rescheduled as moved', () => {
    expect(statusInWords('Spring Gala - POSTPONED')).toBe('moved');
    expect(statusInWords('Verschoben: Sommerfest')).toBe('moved');
    expect(statusInWords('Aplazado - Concierto')).toBe('moved');
    expect(statusInWords('Spettacolo (rinviato)')).toBe('moved');
    expect(statusInWords('Fête reportée')).toBe('moved');
    expect(statusInWords('postponed')).toBe('moved');
  });

  it('reads a marker after a warning word as at the start', () => {
    // FabLab Cottbus's calendar (test/fixtures/real-world/recurringical-fablab-cottbus.ics).
    expect(statusInWords('Achtung, verschoben: Repair Café')).toBe('moved');
    expect(statusInWords('UPDATE: Cancelled - Spring Gala')).toBe('cancelled');
    expect(statusInWords('Achtung: Chorprobe heute')).toBeUndefined();
    expect(statusInWords('Important cancelled flights briefing')).toBeUndefined();
  });

  it('says cancelled when a title says both', () => {
    expect(statusInWords('Postponed: Parade (Cancelled)')).toBe('cancelled');
  });

  it('leaves titles without a clear marker scheduled', () => {
    expect(statusInWords('Cancellation policy workshop')).toBeUndefined();
    expect(statusInWords('The Cancelled Sisters (band)')).toBeUndefined();
    expect(statusInWords('Cancelled Sisters live')).toBeUndefined();
    expect(statusInWords('Postponement rules explained')).toBeUndefined();
    expect(statusInWords('Abgesagte Termine nachholen')).toBeUndefined();
    expect(statusInWords('Board Meeting')).toBeUndefined();
    expect(statusInWords(undefined)).toBeUndefined();
  });
});
