/**
 * schema.org's Event and every type below it (https://schema.org/Event, "More specific Types", release 29),
 * by local name. Names such as Festival, Hackathon, CourseInstance or EventSeries do not end in "Event", so a
 * suffix test misses them. UserInteraction and its User* subtypes are left out: schema.org superseded them
 * with InteractionCounter, and they count clicks and likes, not happenings anyone attends.
 */
export const SCHEMA_EVENT_TYPES: ReadonlySet<string> = new Set([
  'Event',
  'BusinessEvent',
  'ChildrensEvent',
  'ComedyEvent',
  'CourseInstance',
  'DanceEvent',
  'DeliveryEvent',
  'EducationEvent',
  'EventSeries',
  'ExhibitionEvent',
  'Festival',
  'FoodEvent',
  'Hackathon',
  'LiteraryEvent',
  'MusicEvent',
  'PublicationEvent',
  'BroadcastEvent',
  'OnDemandEvent',
  'SaleEvent',
  'ScreeningEvent',
  'SocialEvent',
  'SportsEvent',
  'TheaterEvent',
  'VisualArtsEvent',
]);

/** 'https://schema.org/MusicEvent', 'schema:MusicEvent' and 'MusicEvent' all name MusicEvent. */
export function localName(iri: string): string {
  return iri.replace(/^.*[/#:]/, '');
}

/**
 * Whether a type names an event: one of schema.org's (data-vocabulary.org's Event has the same name), or an
 * extension vocabulary's type whose name ends in "Event" (MeetupEvent), but never a User* interaction.
 */
export function isEventType(type: string): boolean {
  const name = localName(type);
  return SCHEMA_EVENT_TYPES.has(name) || (name.endsWith('Event') && !name.startsWith('User'));
}
