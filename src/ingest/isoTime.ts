// Times as agents write them: `2026-12-01T14:08:29.596Z`, on nearly every line of a native log.
// `Date.parse` reads any form and was 3% of reading a Claude Code log; this form is read by hand
// and every other (or a value this reading is not sure of) by `Date.parse`, which isoTime.test.ts
// holds it to.

const ZERO = 48;

/** `Date.parse(value)`, read by hand where `value` is `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export function parseIsoTime(value: string): number {
  if (value.length !== 24 || value.charCodeAt(23) !== 90 /* Z */) return Date.parse(value);
  const separators =
    value.charCodeAt(4) === 45 && value.charCodeAt(7) === 45 && value.charCodeAt(10) === 84 &&
    value.charCodeAt(13) === 58 && value.charCodeAt(16) === 58 && value.charCodeAt(19) === 46;
  return timeOfFields(
    stringDigits(value, 0, 4), stringDigits(value, 5, 2), stringDigits(value, 8, 2),
    stringDigits(value, 11, 2), stringDigits(value, 14, 2), stringDigits(value, 17, 2), stringDigits(value, 20, 3), separators,
  ) ?? Date.parse(value);
}

/**
 * `parseIsoTime` of the text `bytes[start, end)` spells when it is that form (ASCII, so a byte is a
 * character), read with no string made; undefined for any other, which the caller reads as text.
 */
export function parseIsoTimeBytes(bytes: Uint8Array, start: number, end: number): number | undefined {
  if (end - start !== 24 || bytes[start + 23] !== 90 /* Z */) return undefined;
  const separators =
    bytes[start + 4] === 45 && bytes[start + 7] === 45 && bytes[start + 10] === 84 &&
    bytes[start + 13] === 58 && bytes[start + 16] === 58 && bytes[start + 19] === 46;
  return timeOfFields(
    byteDigits(bytes, start, 4), byteDigits(bytes, start + 5, 2), byteDigits(bytes, start + 8, 2),
    byteDigits(bytes, start + 11, 2), byteDigits(bytes, start + 14, 2), byteDigits(bytes, start + 17, 2), byteDigits(bytes, start + 20, 3), separators,
  );
}

/** The time the fields of that form spell (each -1 where not digits); undefined when Date.parse must decide. */
function timeOfFields(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number, separators: boolean): number | undefined {
  // Years before 100 (Date.parse's own reading of them is left to it), a day past its month's end, 24:00 and
  // anything not a digit or separator where one belongs: Date.parse decides.
  if (
    !separators || year < 100 || month < 1 || month > 12 || day < 1 || (day > 28 && day > daysInMonth(year, month)) ||
    hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0
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
function stringDigits(value: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const digit = value.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** The same of bytes. */
function byteDigits(bytes: Uint8Array, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const digit = bytes[i]! - ZERO;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}
