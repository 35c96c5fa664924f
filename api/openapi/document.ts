import { z } from 'zod';
import { EXAMPLE_FLOWS, type ExampleStep } from './examples';
import { COMPONENT_SCHEMAS, SECURITY_SCHEMES, descriptionOf, operationIdOf, refusalCodesByStatus, responsesOf, tagList, type RouteFacts } from './operations';

/** Where the route's facts ride from the per-route transform to the whole-document pass. */
export const FACTS_KEY = 'x-route-facts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

type Operation = Record<string, unknown> & {
  parameters?: { name: string; in: string; examples?: Record<string, unknown> }[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: unknown; examples?: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown; examples?: Record<string, unknown> }> }>;
};

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  [key: string]: unknown;
}

/** `/api/x/:id` as an OpenAPI path `/api/x/{id}`. */
export const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The whole-document pass: one operation object per method (aliases deprecated), who may call it,
 * its answers and refusals, the shared schemas, the security scheme, the tags and the examples.
 */
export function finishDocument(doc: OpenApiDocument): OpenApiDocument {
  const tags = new Set<string>();
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const shared = item[method];
      if (!shared) continue;
      const facts = shared[FACTS_KEY] as RouteFacts;
      // @fastify/swagger gives every method of a route the same object: each gets its own here.
      // (The facts stay out of the copy: they hold the zod schemas of a multipart form.)
      const { [FACTS_KEY]: _facts, ...rest } = shared;
      const op = structuredClone(rest) as Operation;
      const upper = method.toUpperCase();
      op.operationId = operationIdOf(upper, facts.url);
      op.description = descriptionOf(facts, upper);
      op.security = facts.roles ? [{ bearerAuth: [] }] : [];
      if (facts.roles) op['x-roles'] = [...facts.roles];
      if (upper !== facts.methods[0]) op.deprecated = true;
      op.responses = responsesOf(facts) as Operation['responses'];
      const body = requestBodyOf(op.requestBody, facts);
      if (body) op.requestBody = body;
      else delete op.requestBody;
      for (const tag of (op.tags as string[] | undefined) ?? []) tags.add(tag);
      item[method] = op;
    }
  }
  for (const flow of EXAMPLE_FLOWS) for (const step of flow.steps) addExample(doc, step);
  const refusals = [...refusalCodesByStatus()].map(([status, codes]) => `- ${status}: ${codes.map((c) => `\`${c}\``).join(', ')}`).join('\n');
  return {
    ...doc,
    info: {
      ...doc.info,
      description: [
        'The affordable-housing portal API. Every answer is the envelope `{status, message, data}`; a refusal carries a stable `data.code` (spec section 8) and answers with an HTTP status by kind: 400 bad input, 401 no valid token, 403 not allowed, 404 not found, 405 a method the path does not take (with `Allow`), 409 not possible in the current state, 422 input refused by a rule, 429 too many attempts, 503 workflow service unavailable.',
        'Text anywhere in a request (path, query, body, keys included) never holds a NUL character or a lone surrogate: such input is refused with 400 `validation`.',
        "Each guarded operation names the roles that may call it in `x-roles` (read from the route's guard).",
        'Lists that grow page by cursor (`cursor`, `limit`; the answer has `items` and `nextCursor`).',
        'Examples: `x-example-flows` lists the main flows in order; a value written `{{name}}` is taken from an earlier step of the flow.',
        `Case refusal codes by status (every other case refusal is 409):\n${refusals}`,
      ].join('\n\n'),
    },
    tags: tagList(tags),
    components: {
      ...doc.components,
      schemas: { ...doc.components?.schemas, ...COMPONENT_SCHEMAS },
      securitySchemes: SECURITY_SCHEMES,
    },
    'x-example-flows': EXAMPLE_FLOWS.map((flow) => ({
      name: flow.name,
      description: flow.description,
      steps: flow.steps.map((s) => ({ operationId: operationIdOf(s.method, s.url), example: s.name, ...(s.as ? { bearerTokenFrom: s.as } : {}), ...(s.save ? { save: s.save } : {}) })),
    })),
  };
}

/**
 * The request body as the route reads it: a multipart form where the route declares one; a JSON
 * body whose schema admits null is optional (an empty body reads as none, api/plugins/input-safety.ts).
 */
function requestBodyOf(body: Operation['requestBody'], facts: RouteFacts): Operation['requestBody'] {
  const multipart = facts.declared.multipart;
  if (multipart) {
    const fields = z.toJSONSchema(multipart.fields, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
    delete (fields as { $schema?: string }).$schema;
    const file = { type: 'string', format: 'binary' };
    const schema = {
      ...fields,
      type: 'object',
      properties: { ...fields.properties, file: { anyOf: [file, { type: 'array', items: file, minItems: 1 }] } },
      required: [...(fields.required ?? []), ...(multipart.files === 'required' ? ['file'] : [])],
    };
    return { required: true, content: { ...body?.content, 'multipart/form-data': { schema } } };
  }
  const json = body?.content['application/json']?.schema as { anyOf?: { type?: string }[] } | undefined;
  if (body && json?.anyOf?.some((s) => s.type === 'null')) return { ...body, required: false };
  return body;
}

/** Puts one example step into its operation: parameter, body and answer examples under the same key. */
function addExample(doc: OpenApiDocument, step: ExampleStep): void {
  const op = doc.paths[openapiPath(step.url)]?.[step.method.toLowerCase() as 'get'];
  if (!op) throw new Error(`OpenAPI example ${step.name}: ${step.method} ${step.url} is not a documented route`);
  for (const [where, values] of [['path', step.params], ['query', step.query]] as const) {
    for (const [name, value] of Object.entries(values ?? {})) {
      const parameter = op.parameters?.find((p) => p.in === where && p.name === name);
      if (!parameter) throw new Error(`OpenAPI example ${step.name}: no ${where} parameter ${name}`);
      parameter.examples = { ...parameter.examples, [step.name]: { summary: step.summary, value } };
    }
  }
  if (step.body !== undefined) {
    op.requestBody ??= { content: { 'application/json': {} } };
    const media = (op.requestBody.content['application/json'] ??= {});
    media.examples = { ...media.examples, [step.name]: { summary: step.summary, value: step.body } };
  }
  const key = String(step.status);
  const error = step.status >= 400;
  const response = (op.responses[key] ??= {
    description: error ? 'Refused' : 'Done',
    content: { 'application/json': { schema: error ? { $ref: '#/components/schemas/ErrorEnvelope' } : { $ref: '#/components/schemas/Envelope' } } },
  });
  const media = (response.content ??= { 'application/json': {} })['application/json']!;
  media.examples = { ...media.examples, [step.name]: { summary: step.summary, value: step.response } };
}
