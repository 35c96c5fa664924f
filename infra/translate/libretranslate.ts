/**
 * Adapter to a LibreTranslate-compatible server: `POST {url}/translate` with a JSON body
 * `{q, source, target, format, api_key}`; `q` may be a list (batch), and the answer then lists
 * `translatedText` in the same order. Every failure (refused, timed out, malformed answer) is one
 * `TranslationServerError`, which the service turns into an untranslated answer (never a 5xx).
 */
export interface MachineTranslator {
  /** Translates texts in order; `source` may be `auto`. */
  translate(texts: readonly string[], source: string, target: string): Promise<{ text: string; detected: string | null }[]>;
}

export class TranslationServerError extends Error {
  override name = 'TranslationServerError';
  constructor(
    message: string,
    readonly kind: 'timeout' | 'refused' | 'malformed',
  ) {
    super(message);
  }
}

interface LibreAnswer {
  translatedText?: unknown;
  detectedLanguage?: unknown;
  error?: unknown;
}

const detectedOf = (value: unknown): string | null => {
  const item = Array.isArray(value) ? value[0] : value;
  const language = (item as { language?: unknown } | null | undefined)?.language;
  return typeof language === 'string' ? language : null;
};

export function libreTranslate(options: { url: string; apiKey?: string | undefined; timeoutMs: number; fetch?: typeof fetch }): MachineTranslator {
  const endpoint = `${options.url.replace(/\/+$/, '')}/translate`;
  const doFetch = options.fetch ?? fetch;
  return {
    async translate(texts, source, target) {
      if (texts.length === 0) return [];
      const body = { q: texts.length === 1 ? texts[0] : [...texts], source, target, format: 'text', ...(options.apiKey ? { api_key: options.apiKey } : {}) };
      let response: Response;
      try {
        response = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        throw new TranslationServerError(timedOut ? `no answer within ${options.timeoutMs} ms` : 'could not reach the server', timedOut ? 'timeout' : 'refused');
      }
      let answer: LibreAnswer;
      try {
        answer = (await response.json()) as LibreAnswer;
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        if (timedOut) throw new TranslationServerError(`no answer within ${options.timeoutMs} ms`, 'timeout');
        throw new TranslationServerError(`answered ${response.status} without JSON`, response.ok ? 'malformed' : 'refused');
      }
      // The server's own error text may quote the request; only the status is kept.
      if (!response.ok) throw new TranslationServerError(`answered ${response.status}`, 'refused');
      const translated = answer.translatedText;
      const list = texts.length === 1 && typeof translated === 'string' ? [translated] : translated;
      if (!Array.isArray(list) || list.length !== texts.length || !list.every((t): t is string => typeof t === 'string')) {
        throw new TranslationServerError('answer without one translatedText per text', 'malformed');
      }
      const detected = answer.detectedLanguage;
      return list.map((text, i) => ({ text, detected: detectedOf(Array.isArray(detected) ? detected[i] : detected) }));
    },
  };
}
