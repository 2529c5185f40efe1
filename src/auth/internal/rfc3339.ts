/**
 * RFC 3339 `date-time`, parsed strictly: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)` with upper-case `T` and `Z`, a day
 * that exists in its month (2022-02-31 is refused; JavaScript's `Date` would roll it over to March 3), hours 00–23,
 * minutes and seconds 00–59 (a leap second, `:60`, is refused: no clock here can hold it).
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since the Unix epoch of an RFC 3339 `date-time` (fractions beyond milliseconds are cut), or null. */
export function parseDateTime(text: string): number | null {
  const match = DATE_TIME.exec(text);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, fraction = "", zulu, sign, offsetHour, offsetMinute] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  let offsetMinutes = 0;
  if (zulu === undefined) {
    const [oh, om] = [Number(offsetHour), Number(offsetMinute)];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (sign === "-" ? -1 : 1) * (oh * 60 + om);
  }
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, Number(fraction.slice(0, 3).padEnd(3, "0")));
  return date.getTime() - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
