/** Languages a message is written in (spec section 1); anything else falls back to English. */
export type MessageLanguage = 'en' | 'es' | 'zh' | 'bn';

export interface RenderedMessage {
  subject: string;
  /** Plain-text email body. */
  text: string;
  /** Short text for SMS (no links longer than needed). */
  sms: string;
}

export interface RenderContext {
  /** Public address of the web app, for links (`PUBLIC_BASE_URL`). */
  baseUrl: string;
}

/**
 * One message kind. Each lives in its own file under infra/notifications/templates/ and is listed
 * once in templates/index.ts. `secretParams` are wiped from the outbox row once the message is sent,
 * so codes and link tokens do not stay in the database.
 */
export interface NotificationTemplate<P extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  secretParams?: readonly (keyof P & string)[];
  render(language: MessageLanguage, params: P, context: RenderContext): RenderedMessage;
}

export function defineTemplate<P extends Record<string, unknown>>(template: NotificationTemplate<P>): NotificationTemplate<P> {
  return template;
}

export function pickLanguage(value: string): MessageLanguage {
  return value === 'es' || value === 'zh' || value === 'bn' ? value : 'en';
}

export const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
