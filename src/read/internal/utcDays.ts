import { utcDay } from "../../storage/poolDaily";

const DAY_S = 86_400;

/** Unix seconds of a UTC day's first second (`YYYY-MM-DD`). */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

/** The UTC day `offset` days after `day` (negative: before). */
export function addDays(day: string, offset: number): string {
  return utcDay(dayStart(day) + offset * DAY_S);
}

/** The `count` UTC days ending with `lastDay`, oldest first. */
export function dayRange(lastDay: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(lastDay, i - count + 1));
}
