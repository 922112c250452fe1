// Times as agents write them: `2026-12-01T14:08:29.596Z`, on nearly every line of a native log.
// `Date.parse` reads any form and was 3% of reading a Claude Code log; this form is read by hand
// and every other (or a value this reading is not sure of) by `Date.parse`, which isoTime.test.ts
// holds it to.

const ZERO = 48;

/** `Date.parse(value)`, read by hand where `value` is `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export function parseIsoTime(value: string): number {
  if (value.length !== 24) return Date.parse(value);
  const codes = CODES;
  for (let i = 0; i < 24; i++) {
    const code = value.charCodeAt(i);
    // Not one byte: not that form (and not to be cut to one).
    if (code > 127) return Date.parse(value);
    codes[i] = code;
  }
  return canonicalTime(codes, 0) ?? Date.parse(value);
}

/**
 * `parseIsoTime` of the text `bytes[start, end)` spells when it is that form (ASCII, so a byte is a
 * character), read with no string made; undefined for any other, which the caller reads as text.
 */
export function parseIsoTimeBytes(bytes: Uint8Array, start: number, end: number): number | undefined {
  return end - start === 24 ? canonicalTime(bytes, start) : undefined;
}

/** Room for one time's character codes, read again for every time. */
const CODES = new Uint8Array(24);

/** The time the 24 codes at `at` spell in the form above; undefined when not that form (or not sure). */
function canonicalTime(codes: Uint8Array, at: number): number | undefined {
  if (codes[at + 23] !== 90 /* Z */) return undefined;
  const year = digits(codes, at, 4);
  const month = digits(codes, at + 5, 2);
  const day = digits(codes, at + 8, 2);
  const hour = digits(codes, at + 11, 2);
  const minute = digits(codes, at + 14, 2);
  const second = digits(codes, at + 17, 2);
  const ms = digits(codes, at + 20, 3);
  // Years before 100 (Date.parse's own reading of them is left to it), a day past its month's end, 24:00 and
  // anything not a digit where one belongs: Date.parse decides.
  if (
    year < 100 || month < 1 || month > 12 || day < 1 || (day > 28 && day > daysInMonth(year, month)) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0 ||
    codes[at + 4] !== 45 || codes[at + 7] !== 45 || codes[at + 10] !== 84 ||
    codes[at + 13] !== 58 || codes[at + 16] !== 58 || codes[at + 19] !== 46
  ) {
    return undefined;
  }
  return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
}

const DAY_MS = 86_400_000;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
 * `days_from_civil`): what `Date.UTC` works out, without its call, which was half of this reading.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The number the `count` digits at `at` spell, or -1 when one is not a digit. */
function digits(codes: Uint8Array, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const digit = codes[i]! - ZERO;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}
