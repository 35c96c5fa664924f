/** Languages a message is written in (spec section 1); anything else falls back to English. */
export type MessageLanguage = 'en' | 'es' | 'zh' | 'bn';

export interface RenderedMessage {
  subject: string;
  /** Plain-text email body. */
  text: string;
  /** Short text for SMS (no links longer than needed). */
  sms: string;
  /** Extra e-mail headers the message declares (the alerts' List-Unsubscribe); ignored for texts. */
  headers?: Record<string, string>;
}

export interface RenderContext {
  /** Public address of the web app, for links (`PUBLIC_BASE_URL`). */
  baseUrl: string;
  /** The outbox row being sent: its links go through the notification redirect log. */
  notificationId?: string;
}

/**
 * A link to a page of the portal in a message. With the row's id, it opens the portal at
 * `/?redirect=<path>&notification=<id>`: the web app posts both to the notification redirect log
 * (spec section 7, POST /api/redirect/redirectToDestination), which records the click and answers
 * where to go (only ever a page of the portal).
 */
export function portalLink({ baseUrl, notificationId }: RenderContext, path: string): string {
  const base = baseUrl.replace(/\/$/, '');
  // A link carrying a secret (reset or verification token, a code) goes straight to its page: through
  // the redirect log the secret would sit in the click record and in the start page's address.
  if (!notificationId || /[?&](token|code|otp)=/i.test(path)) return `${base}${path}`;
  return `${base}/?${new URLSearchParams({ redirect: path, notification: notificationId })}`;
}

/** "Open the portal" line under a message, in the message's language. */
export const OPEN_PORTAL: Record<MessageLanguage, string> = {
  en: 'Open the portal',
  es: 'Abrir el portal',
  zh: '打开门户网站',
  bn: 'পোর্টাল খুলুন',
};

/** How every text message starts, so a person knows who wrote before the link. */
export const SMS_BRAND: Record<MessageLanguage, string> = {
  en: 'Housing Portal',
  es: 'Portal de Vivienda',
  zh: '住房门户',
  bn: 'হাউজিং পোর্টাল',
};

/**
 * A text message: who writes, one short line, and a plain link to the portal page. A text may be
 * read by anyone holding the phone, so it carries no names, figures or identifiers (the
 * email and the portal page do), and the link goes straight to the page: the redirect log's
 * address would make it too long for two segments in Chinese and Bengali (domain/sms.ts).
 */
export function smsNotice(language: MessageLanguage, { baseUrl }: RenderContext, path: string, line: string): string {
  return `${SMS_BRAND[language]}: ${line} ${baseUrl.replace(/\/$/, '')}${path}`;
}

/**
 * One message kind. Each lives in its own file under infra/notifications/templates/ and is listed
 * once in templates/index.ts. `secretParams` are wiped from the outbox row once the message is sent,
 * so codes and link tokens do not stay in the database.
 */
export interface NotificationTemplate<P extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  secretParams?: readonly (keyof P & string)[];
  /** The only params a text message may show (a one-time code and its minutes); every other value stays out of the SMS. */
  smsParams?: readonly (keyof P & string)[];
  render(language: MessageLanguage, params: P, context: RenderContext): RenderedMessage;
}

export function defineTemplate<P extends Record<string, unknown>>(template: NotificationTemplate<P>): NotificationTemplate<P> {
  return template;
}

export function pickLanguage(value: string): MessageLanguage {
  return value === 'es' || value === 'zh' || value === 'bn' ? value : 'en';
}

export const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
