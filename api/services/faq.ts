import { sql, type RawBuilder } from 'kysely';
import { MAX_FAQ_QUESTIONS, faqSearchWords, type FaqCategory, type FaqCategoryBody, type FaqQuestion, type FaqQuestionBody, type FaqText } from '../../domain';
import type { Db } from '../../infra/db/database';
import { HttpError, notFound } from '../errors';

/**
 * FAQ categories (spec section 7 `GET api/FaqCategory`). The texts are public
 * help, so they are stored plainly (jsonb per language) and searched with ILIKE: the table is small
 * and curated, so a scan per search is cheaper than keeping a text index in four languages.
 */
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every text of a question and its answer, in every language, as one string to match words against. */
const haystack = sql<string>`concat_ws(' ', q.question->>'en', q.question->>'es', q.question->>'zh', q.question->>'bn', q.answer->>'en', q.answer->>'es', q.answer->>'zh', q.answer->>'bn')`;
const questionText = sql<string>`concat_ws(' ', q.question->>'en', q.question->>'es', q.question->>'zh', q.question->>'bn')`;

interface QuestionRow {
  id: string;
  category_id: string;
  position: number;
  question: FaqText;
  answer: FaqText;
}
const toQuestion = (r: QuestionRow): FaqQuestion => ({ id: r.id, categoryId: r.category_id, position: r.position, question: r.question, answer: r.answer });

/**
 * The categories with their questions, in order. With a search, only the questions holding every
 * word (in any language) and the categories that have one; without words (e.g. one letter) the
 * whole phrase is matched.
 */
export async function listFaq(db: Db, search?: string): Promise<FaqCategory[]> {
  const phrase = search?.trim() ?? '';
  const words = phrase ? (faqSearchWords(phrase).length ? faqSearchWords(phrase) : [phrase.toLowerCase()]) : [];
  let questions = db.selectFrom('faq_questions as q').select(['q.id', 'q.category_id', 'q.position', 'q.question', 'q.answer']);
  for (const word of words) questions = questions.where(sql<boolean>`${haystack} ilike ${likePattern(word)}`);
  const [categories, rows] = await Promise.all([
    db.selectFrom('faq_categories').select(['id', 'slug', 'position', 'name']).orderBy('position').orderBy('id').execute(),
    questions.orderBy('q.category_id').orderBy('q.position').orderBy('q.id').limit(MAX_FAQ_QUESTIONS).execute(),
  ]);
  const byCategory = new Map<string, FaqQuestion[]>();
  for (const row of rows) byCategory.set(row.category_id, [...(byCategory.get(row.category_id) ?? []), toQuestion(row)]);
  return categories
    .map((c) => ({ id: c.id, slug: c.slug, position: c.position, name: c.name, questions: byCategory.get(c.id) ?? [] }))
    .filter((c) => !words.length || c.questions.length > 0);
}

/** Common words that say nothing about the topic, so they do not pull answers into suggestions. */
const STOP_WORDS = new Set(['the', 'and', 'how', 'what', 'when', 'where', 'why', 'can', 'does', 'for', 'you', 'your', 'with', 'this', 'that', 'have', 'are', 'not', 'que', 'los', 'las', 'una', 'por', 'para', 'como', 'cómo', 'qué', 'cuándo', 'con', 'del', 'mis', 'est', 'hay', 'puedo']);

/**
 * Up to three questions that answer what a person is about to ask in a ticket: ranked by how many
 * of its words appear, in the question (counted twice) or the answer.
 */
export async function suggestFaq(db: Db, text: string): Promise<FaqQuestion[]> {
  const words = faqSearchWords(text).filter((w) => !STOP_WORDS.has(w));
  if (!words.length) return [];
  const hit = (target: RawBuilder<string>, word: string) => sql<number>`(case when ${target} ilike ${likePattern(word)} then 1 else 0 end)`;
  const score = sql<number>`(${sql.join(words.flatMap((w) => [hit(questionText, w), hit(questionText, w), hit(haystack, w)]), sql` + `)})`;
  const rows = await db
    .selectFrom('faq_questions as q')
    .select(['q.id', 'q.category_id', 'q.position', 'q.question', 'q.answer', score.as('score')])
    .where(score, '>', 0)
    .orderBy('score', 'desc')
    .orderBy('q.position')
    .orderBy('q.id')
    .limit(3)
    .execute();
  return rows.map(toQuestion);
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
const text = (value: FaqText) => JSON.stringify(value);

export async function createCategory(db: Db, body: FaqCategoryBody): Promise<FaqCategory> {
  try {
    const row = await db.insertInto('faq_categories').values({ slug: body.slug, position: body.position, name: text(body.name) }).returning(['id', 'slug', 'position', 'name']).executeTakeFirstOrThrow();
    return { ...row, questions: [] };
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'faqSlugTaken');
    throw error;
  }
}

export async function updateCategory(db: Db, id: string, body: FaqCategoryBody): Promise<FaqCategory> {
  try {
    const row = await db
      .updateTable('faq_categories')
      .set({ slug: body.slug, position: body.position, name: text(body.name), updated_at: sql`now()` })
      .where('id', '=', id)
      .returning(['id', 'slug', 'position', 'name'])
      .executeTakeFirst();
    if (!row) throw notFound();
    const questions = await db.selectFrom('faq_questions as q').select(['q.id', 'q.category_id', 'q.position', 'q.question', 'q.answer']).where('q.category_id', '=', id).orderBy('q.position').orderBy('q.id').execute();
    return { ...row, questions: questions.map(toQuestion) };
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'faqSlugTaken');
    throw error;
  }
}

/** Deletes a category and its questions (the foreign key cascades). */
export async function deleteCategory(db: Db, id: string): Promise<{ id: string }> {
  const row = await db.deleteFrom('faq_categories').where('id', '=', id).returning('id').executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function createQuestion(db: Db, categoryId: string, body: FaqQuestionBody): Promise<FaqQuestion> {
  const category = await db.selectFrom('faq_categories').select('id').where('id', '=', categoryId).executeTakeFirst();
  if (!category) throw notFound();
  const row = await db
    .insertInto('faq_questions')
    .values({ category_id: categoryId, position: body.position, question: text(body.question), answer: text(body.answer) })
    .returning(['id', 'category_id', 'position', 'question', 'answer'])
    .executeTakeFirstOrThrow();
  return toQuestion(row);
}

export async function updateQuestion(db: Db, id: string, body: FaqQuestionBody): Promise<FaqQuestion> {
  const row = await db
    .updateTable('faq_questions')
    .set({ position: body.position, question: text(body.question), answer: text(body.answer), updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(['id', 'category_id', 'position', 'question', 'answer'])
    .executeTakeFirst();
  if (!row) throw notFound();
  return toQuestion(row);
}

export async function deleteQuestion(db: Db, id: string): Promise<{ id: string }> {
  const row = await db.deleteFrom('faq_questions').where('id', '=', id).returning('id').executeTakeFirst();
  if (!row) throw notFound();
  return row;
}
