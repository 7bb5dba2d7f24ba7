/** Languages the service offers for default_language, with their English names (for events). */
export const LANGUAGES: Readonly<Record<string, string>> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  nl: 'Dutch',
  pl: 'Polish',
  sv: 'Swedish',
  ru: 'Russian',
  uk: 'Ukrainian',
  ja: 'Japanese',
  ko: 'Korean',
  'zh-hans': 'Simplified Chinese',
  hi: 'Hindi',
};

export function languageName(code: string): string | undefined {
  return Object.hasOwn(LANGUAGES, code) ? LANGUAGES[code] : undefined;
}

/** IANA time zone names the runtime knows, plus UTC and '' (not set). */
const TIME_ZONES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', '']);

export function isValidTimeZone(name: string): boolean {
  return TIME_ZONES.has(name);
}
