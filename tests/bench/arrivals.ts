/**
 * When each person of an opening day arrives: a rush as the lottery opens, then a steady trickle.
 * Half of them (rounded up) arrive in the first minute, the rest spread evenly over the minutes
 * after it; with one minute, all arrive evenly within it. Evenly spaced, not random, so two runs
 * offer the same load and the schedule can be checked.
 */

const MINUTE_MS = 60_000;

/** Milliseconds from the start at which each of `people` arrives, in order, all before `minutes` have passed. */
export function arrivalOffsets(people: number, minutes: number): number[] {
  if (!(Number.isInteger(people) && people >= 0)) throw new RangeError(`people must be a whole number, got ${people}`);
  if (!(Number.isInteger(minutes) && minutes >= 1)) throw new RangeError(`minutes must be a whole number of at least 1, got ${minutes}`);
  if (minutes === 1) return Array.from({ length: people }, (_, i) => (i * MINUTE_MS) / people);
  const rush = Math.ceil(people / 2);
  const rest = people - rush;
  const trickleMs = (minutes - 1) * MINUTE_MS;
  return [...Array.from({ length: rush }, (_, i) => (i * MINUTE_MS) / rush), ...Array.from({ length: rest }, (_, j) => MINUTE_MS + (j * trickleMs) / rest)];
}

/** How many of the offsets fall in each whole minute from the start (the schedule's shape, for the report and its test). */
export function arrivalsPerMinute(offsets: readonly number[], minutes: number): number[] {
  const counts = Array.from({ length: minutes }, () => 0);
  for (const at of offsets) counts[Math.min(minutes - 1, Math.floor(at / MINUTE_MS))]!++;
  return counts;
}
