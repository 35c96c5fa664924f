import { describe, expect, it } from 'vitest';
import { arrivalOffsets, arrivalsPerMinute } from './arrivals';

// The opening-day schedule (npm run bench -- --opening-day): its shape, not its timing.
describe('opening-day arrivals', () => {
  it('brings half of the people in the first minute and spreads the rest evenly over the minutes after it', () => {
    const offsets = arrivalOffsets(2000, 5);
    expect(offsets).toHaveLength(2000);
    expect(arrivalsPerMinute(offsets, 5)).toEqual([1000, 250, 250, 250, 250]);
    expect(offsets[0]).toBe(0);
    expect(Math.max(...offsets)).toBeLessThan(5 * 60_000);
    expect(offsets.every((at, i) => i === 0 || at > offsets[i - 1]!)).toBe(true);
  });

  it('rounds the rush up for an odd count and brings everyone within one minute when the run lasts one', () => {
    expect(arrivalsPerMinute(arrivalOffsets(201, 3), 3)).toEqual([101, 50, 50]);
    const quick = arrivalOffsets(200, 1);
    expect(arrivalsPerMinute(quick, 1)).toEqual([200]);
    expect(Math.max(...quick)).toBeLessThan(60_000);
    expect(arrivalOffsets(1, 5)).toEqual([0]);
    expect(arrivalOffsets(0, 5)).toEqual([]);
  });

  it('refuses sizes that are not whole numbers', () => {
    expect(() => arrivalOffsets(10, 0)).toThrow(RangeError);
    expect(() => arrivalOffsets(1.5, 2)).toThrow(RangeError);
  });
});
