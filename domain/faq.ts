import { z } from 'zod';

/**
 * FAQ categories (spec section 7 `GET api/FaqCategory`): questions and answers in
 * the four languages of the interface, managed by admins, searchable from the help page and offered
 * before a ticket is opened.
 */
export const FAQ_LANGUAGES = ['en', 'es', 'zh', 'bn'] as const;
export type FaqLanguage = (typeof FAQ_LANGUAGES)[number];
export type FaqText = Record<FaqLanguage, string>;

export const MAX_FAQ_ANSWER_LENGTH = 4000;
/** The FAQ is curated by admins, not grown by users: one bounded answer instead of cursor paging. */
export const MAX_FAQ_QUESTIONS = 500;

export const FAQ_MESSAGES = {
  textRequired: 'Please write the text in every language',
  textTooLong: 'The text is too long',
  slug: 'Use lower-case letters, digits and dashes',
  searchTooLong: 'The search is too long (100 characters at most)',
  slugTaken: 'A category with this name already exists',
} as const;

const localized = (max: number) => {
  const one = z.string({ error: FAQ_MESSAGES.textRequired }).trim().min(1, FAQ_MESSAGES.textRequired).max(max, FAQ_MESSAGES.textTooLong);
  return z.object({ en: one, es: one, zh: one, bn: one }, { error: FAQ_MESSAGES.textRequired }).strict();
};

const Position = z.number({ error: 'Position must be a number' }).int('Position must be a whole number').min(0).max(10_000);

/** Admin: a category (its slug names it in links and keeps the seed idempotent). */
export const FaqCategoryBody = z
  .object({
    slug: z.string({ error: FAQ_MESSAGES.slug }).trim().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, FAQ_MESSAGES.slug).max(60, FAQ_MESSAGES.slug),
    position: Position,
    name: localized(120),
  })
  .strict();
export type FaqCategoryBody = z.infer<typeof FaqCategoryBody>;

/** Admin: a question and its answer, in every language. */
export const FaqQuestionBody = z
  .object({
    position: Position,
    question: localized(300),
    answer: localized(MAX_FAQ_ANSWER_LENGTH),
  })
  .strict();
export type FaqQuestionBody = z.infer<typeof FaqQuestionBody>;

/** `GET api/FaqCategory?search=`: every word must appear in the question or its answer (any language). */
export const FaqSearchQuery = z.object({ search: z.string().trim().max(100, FAQ_MESSAGES.searchTooLong).optional() }).strict();

/** `GET api/FaqCategory/suggestions?text=`: what a person is about to ask, to offer answers first. */
export const FaqSuggestionQuery = z.object({ text: z.string().trim().max(1000, FAQ_MESSAGES.searchTooLong) }).strict();

export interface FaqQuestion {
  id: string;
  categoryId: string;
  position: number;
  question: FaqText;
  answer: FaqText;
}

export interface FaqCategory {
  id: string;
  slug: string;
  position: number;
  name: FaqText;
  questions: FaqQuestion[];
}

/** Words worth matching: three letters or more, or any run of CJK or Bengali script (no spaces there). */
export function faqSearchWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((w) => w.length >= 3 || /[\p{Script=Han}\p{Script=Bengali}]/u.test(w));
  return [...new Set(words)].slice(0, 12);
}
