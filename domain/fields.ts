import { FORM_MESSAGES } from './form-messages';
import { z } from 'zod';

/**
 * Field-level building blocks shared by the household, income, asset and document schemas, with the
 * spec's messages (section 5: 'Required', numbers must be numeric, dates valid).
 */
export const REQUIRED = 'Required';
export const NUMBER_MESSAGE = 'Must be a number';
export const DATE_MESSAGE = 'Enter a valid date';
export const REASON_MESSAGE = 'Please provide a reason.';

/**
 * Text the portal accepts: no NUL characters (PostgreSQL cannot store them) and no lone surrogate
 * halves (they are not characters; encoders replace or refuse them). The API applies this rule to
 * every string of every request (api/plugins/input-safety.ts) and every text schema below uses it.
 */
export const UNSAFE_TEXT_MESSAGE = 'Contains characters that are not allowed';
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const isSafeText = (value: string): boolean => !value.includes('\u0000') && !LONE_SURROGATE.test(value);

/** The path of the first string in a value (object, array, string) that breaks the rule, or null. */
export function findUnsafeText(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return isSafeText(value) ? null : path;
  if (depth > 20 || value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    if (!isSafeText(key)) return [...path, '(key)'];
    const found = findUnsafeText(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** Any text: the shared rule, nothing else. */
export const safeText = () => z.string().refine(isSafeText, UNSAFE_TEXT_MESSAGE);

/** A required text field ('Required' when empty). */
export const requiredText = (max = 200) => z.string(REQUIRED).trim().min(1, REQUIRED).max(max).refine(isSafeText, UNSAFE_TEXT_MESSAGE);
/** An optional text field; an empty string means "not given". */
export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(isSafeText, UNSAFE_TEXT_MESSAGE)
    .nullish()
    .transform((v) => (v ? v : null));

/** A number that forms may send as text: '1,200.50' is 1200.5; anything else 'Must be a number'. */
export const money = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.replace(/[,$\s]/g, ''))) : v),
  z.number({ error: (i) => (i.input === undefined ? REQUIRED : NUMBER_MESSAGE) }).min(0, FORM_MESSAGES.zeroOrMore).max(1e10, NUMBER_MESSAGE),
);
export const optionalMoney = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  money.optional(),
).transform((v) => v ?? null);

export const wholeNumber = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
  z.number({ error: (i) => (i.input === undefined ? REQUIRED : NUMBER_MESSAGE) }).int(NUMBER_MESSAGE).min(0, NUMBER_MESSAGE).max(100, NUMBER_MESSAGE),
);

/** A calendar date 'YYYY-MM-DD' that exists (no 2026-02-30), between 1900 and 2200. */
export function isValidDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value && d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 2200;
}
export const isoDate = z.string(REQUIRED).trim().min(1, REQUIRED).refine(isValidDate, DATE_MESSAGE);
export const optionalDate = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || isValidDate(v), DATE_MESSAGE);

/** Whole years between a date of birth and today (both 'YYYY-MM-DD'). */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

export function todayIso(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export const uuid = z.string().uuid(FORM_MESSAGES.invalidId);
/** A "last 4 digits" field (bank accounts, EBT cards; spec sections 3 and 9). */
export const last4 = z.string(REQUIRED).trim().min(1, { error: REQUIRED, abort: true }).regex(/^\d{4}$/, FORM_MESSAGES.last4);
