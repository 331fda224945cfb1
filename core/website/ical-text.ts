import type ICAL from 'ical.js';

type Property = InstanceType<typeof ICAL.Property>;

/**
 * The value of a text property (SUMMARY, LOCATION, DESCRIPTION...) as a calendar shows it. ical.js reads a value
 * by its VALUE parameter, and one that names no value type (Proton Calendar writes a copy of the summary there:
 * `SUMMARY;VALUE="IBE150 NAME^n A285^n":IBE150 NAME\n A285\n`) leaves the value raw, its escapes unread. RFC 5545
 * types these properties TEXT whatever the parameter says, so such a value is unescaped as TEXT here.
 */
export function textValue(prop: Property | null): string | undefined {
  const value = prop?.getFirstValue();
  if (typeof value !== 'string') return undefined;
  return prop?.type === 'text' || prop?.type === 'uri' ? value : unescapeText(value);
}

// RFC 5545 3.3.11: a backslash escapes itself, ';' and ',', and '\n' or '\N' is a line break.
const unescapeText = (value: string) => value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
