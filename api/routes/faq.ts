import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FaqCategoryBody, FaqQuestionBody, FaqSearchQuery, FaqSuggestionQuery } from '../../domain';
import { signedIn } from '../guards';
import * as faq from '../services/faq';
import { idOf } from '../../domain/ids';

const CategoryId = z.object({ id: idOf('Invalid category id') });
const QuestionId = z.object({ questionId: idOf('Invalid question id') });

/**
 * `api/FaqCategory` (spec section 7): the FAQ is public help (read by anyone,
 * signed in or not); admins manage it (paths beside GET chosen here).
 */
export const faqRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = signedIn('admin');

  app.get('/', { schema: { querystring: FaqSearchQuery } }, async (request, reply) => reply.ok(await faq.listFaq(app.db, request.query.search)));
  app.get('/suggestions', { schema: { querystring: FaqSuggestionQuery } }, async (request, reply) => reply.ok(await faq.suggestFaq(app.db, request.query.text)));

  app.post('/', { preHandler: admin, schema: { body: FaqCategoryBody } }, async (request, reply) => reply.ok(await faq.createCategory(app.db, request.body), 'Category created', 201));
  app.put('/:id', { preHandler: admin, schema: { params: CategoryId, body: FaqCategoryBody } }, async (request, reply) =>
    reply.ok(await faq.updateCategory(app.db, request.params.id, request.body), 'Category saved'),
  );
  app.delete('/:id', { preHandler: admin, schema: { params: CategoryId } }, async (request, reply) => reply.ok(await faq.deleteCategory(app.db, request.params.id), 'Category deleted'));

  app.post('/:id/questions', { preHandler: admin, schema: { params: CategoryId, body: FaqQuestionBody } }, async (request, reply) =>
    reply.ok(await faq.createQuestion(app.db, request.params.id, request.body), 'Question created', 201),
  );
  app.put('/questions/:questionId', { preHandler: admin, schema: { params: QuestionId, body: FaqQuestionBody } }, async (request, reply) =>
    reply.ok(await faq.updateQuestion(app.db, request.params.questionId, request.body), 'Question saved'),
  );
  app.delete('/questions/:questionId', { preHandler: admin, schema: { params: QuestionId } }, async (request, reply) =>
    reply.ok(await faq.deleteQuestion(app.db, request.params.questionId), 'Question deleted'),
  );
};
