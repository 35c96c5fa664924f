/**
 * Spec section 7: response bodies are read as `{status, message, data}`; `status` is the HTTP status
 * code. Errors carry a stable `code` in `data` so the web app can show the message in the user's
 * language (section 8 texts are the English ones).
 */
export interface Envelope<T> {
  status: number;
  message: string;
  data: T;
}

export interface ErrorData {
  code: MessageCode | 'validation' | 'unknown';
  issues?: { path: string; message: string }[];
}

import type { MessageCode } from './messages';
