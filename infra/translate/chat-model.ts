/**
 * Optional language model for the intake assistant: an OpenAI-compatible
 * `POST {url}/chat/completions` endpoint. It only reads a resident's free answer into one of the
 * values the question allows (a choice, yes/no, a date, a number); the value then goes through the
 * form's own checks and is shown back for confirmation before anything is saved. Any failure
 * (refused, slow, not JSON, a value not allowed) is `null`: the assistant carries on without it.
 */
export interface AnswerReader {
  read(question: { field: string; kind: string; options?: readonly string[] }, answer: string): Promise<unknown>;
}

const SYSTEM = [
  'You read one answer a resident typed into a housing profile form and return the value the form expects.',
  'Reply with JSON only: {"value": <value>} or {"value": null} when the answer does not say it.',
  'For a choice, the value is exactly one of the options; for several choices, a list of options; for yes/no, true or false;',
  'for a date, YYYY-MM-DD; for a number, a number. Never add anything else, and never say whether anyone qualifies for anything.',
].join(' ');

export function chatModelReader(options: { url: string; model: string; apiKey?: string | undefined; timeoutMs: number }): AnswerReader {
  const endpoint = `${options.url.replace(/\/+$/, '')}/chat/completions`;
  return {
    async read(question, answer) {
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({
            model: options.model,
            temperature: 0,
            response_format: { type: 'json_object' },
            messages: [
              { role: 'system', content: SYSTEM },
              { role: 'user', content: JSON.stringify({ field: question.field, kind: question.kind, options: question.options ?? null, answer }) },
            ],
          }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!response.ok) return null;
        const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
        const content = body.choices?.[0]?.message?.content;
        if (typeof content !== 'string') return null;
        const parsed = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, '')) as { value?: unknown };
        const value = parsed.value ?? null;
        // Only what the question allows: never a value the form does not offer.
        if (question.options && question.kind === 'choice' && !question.options.includes(String(value))) return null;
        if (question.options && question.kind === 'multi' && !(Array.isArray(value) && value.every((v) => question.options!.includes(String(v))))) return null;
        if (question.kind === 'yesno' && typeof value !== 'boolean') return null;
        if (question.kind === 'number' && typeof value !== 'number') return null;
        if (question.kind === 'date' && !(typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))) return null;
        return value;
      } catch {
        return null;
      }
    },
  };
}
