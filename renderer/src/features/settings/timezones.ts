/**
 * IANA time zones for the time zone picker: the list the platform knows, each zone's current
 * offset from UTC, and a filter that finds a zone by any part of its name or by its offset.
 */

/**
 * ICU lists one canonical name per zone, often an old one (`Asia/Calcutta`); people search for
 * the current IANA names, which the service accepts too.
 */
export const CURRENT_NAMES: Readonly<Record<string, string>> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Rangoon': 'Asia/Yangon',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
};

/** Every IANA zone this platform knows (sorted, by current names), with UTC. */
export function timeZoneList(known: readonly string[] = Intl.supportedValuesOf('timeZone')): string[] {
  const zones = new Set<string>(known.map((z) => CURRENT_NAMES[z] ?? z));
  zones.add('UTC');
  return [...zones].sort((a, b) => a.localeCompare(b));
}

/** The zone's offset from UTC in minutes at `at` (east positive); 0 for an unknown zone. */
export function utcOffsetMinutes(zone: string, at: Date = new Date()): number {
  try {
    const text =
      new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
    const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(text);
    if (!match) return 0;
    const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
    return match[1] === '-' ? -minutes : minutes;
  } catch {
    return 0;
  }
}

/** "UTC+05:30", "UTC−08:00", "UTC". */
export function formatOffset(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  const h = String(Math.floor(abs / 60)).padStart(2, '0');
  const m = String(abs % 60).padStart(2, '0');
  return `UTC${sign}${h}:${m}`;
}

/** "Europe/Berlin" as people read it: "Europe / Berlin"; underscores become spaces. */
export function zoneName(zone: string): string {
  return zone.replaceAll('_', ' ').split('/').join(' / ');
}

/** The zone with its current offset: "America / New York (UTC−05:00)". */
export function zoneLabel(zone: string, at: Date = new Date()): string {
  return `${zoneName(zone)} (${formatOffset(utcOffsetMinutes(zone, at))})`;
}

const normalize = (text: string): string =>
  text
    .toLowerCase()
    .replaceAll('_', ' ')
    .replaceAll('−', '-')
    .replace(/\s*\/\s*/g, '/')
    .trim();

/**
 * The zones whose name contains every word of the query (in any order, ignoring case and
 * underscores), or whose offset the query names ("+5:30", "utc-8"); the best matches first:
 * a city that starts with the query before one that merely contains it.
 */
export function filterZones(zones: readonly string[], query: string, at: Date = new Date()): string[] {
  const q = normalize(query);
  if (!q) return [...zones];
  const offsetQuery = /^(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/.exec(q);
  if (offsetQuery) {
    const wanted =
      (offsetQuery[1] === '-' ? -1 : 1) * (Number(offsetQuery[2]) * 60 + Number(offsetQuery[3] ?? 0));
    return zones.filter((z) => utcOffsetMinutes(z, at) === wanted);
  }
  const words = q.split(/\s+/).filter(Boolean);
  const scored: { zone: string; score: number }[] = [];
  for (const zone of zones) {
    const name = normalize(zone);
    if (!words.every((w) => name.includes(w))) continue;
    const city = name.slice(name.lastIndexOf('/') + 1);
    const score = city.startsWith(q) ? 0 : city.includes(q) ? 1 : name.startsWith(q) ? 2 : 3;
    scored.push({ zone, score });
  }
  return scored.sort((a, b) => a.score - b.score || a.zone.localeCompare(b.zone)).map((s) => s.zone);
}
