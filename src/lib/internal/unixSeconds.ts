import { InvalidTimeError } from "../../errors/attestation";

/** Whole Unix seconds of a Date (floor). */
export function unixSeconds(time: unknown): number {
  if (!(time instanceof Date) || Number.isNaN(time.getTime())) throw new InvalidTimeError({ value: time });
  return Math.floor(time.getTime() / 1000);
}
