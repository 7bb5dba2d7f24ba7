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

/** ICU's canonical IANA names, plus UTC and '' (not set). */
const TIME_ZONES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', '']);
/** IANA spelling: capitalized segments (`Asia/Kolkata`, `Etc/GMT+1`), no offsets like `+01:00`. */
const IANA_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/;

/**
 * ICU lists one canonical name per zone (`Asia/Calcutta`, `Europe/Kiev`), so the current
 * IANA names (`Asia/Kolkata`, `Europe/Kyiv`) and other links are checked by ICU itself.
 */
export function isValidTimeZone(name: string): boolean {
  if (TIME_ZONES.has(name)) return true;
  if (!IANA_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
