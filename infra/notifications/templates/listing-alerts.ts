import { ALERT_ONE_CLICK_PATH, ALERT_PATHS } from '../../../domain/listing-alerts';
import { defineTemplate, portalLink, SMS_BRAND, str, type MessageLanguage, type RenderContext } from './types';

/**
 * Listing alerts: the double opt-in of a signed-out visitor, the notice of one
 * listing that fits, and the weekly digest. Every alert e-mail carries RFC 8058 one-click
 * unsubscribe headers, built from the alert's unsubscribe token; every text ends with "Reply STOP
 * to stop" and, like every text, names no listing and no figure.
 */

const base = (ctx: RenderContext) => ctx.baseUrl.replace(/\/$/, '');
const tokenQuery = (token: unknown) => `?${new URLSearchParams({ token: str(token) })}`;

/** The headers a mail client offers its own unsubscribe button with (RFC 2369, RFC 8058). */
export function unsubscribeHeaders(ctx: RenderContext, token: unknown): Record<string, string> {
  return {
    'List-Unsubscribe': `<${base(ctx)}${ALERT_ONE_CLICK_PATH}${tokenQuery(token)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

const unsubscribePage = (ctx: RenderContext, token: unknown) => `${base(ctx)}${ALERT_PATHS.unsubscribe}${tokenQuery(token)}`;

const STOP: Record<MessageLanguage, string> = {
  en: 'Reply STOP to stop',
  es: 'Responda STOP para dejar de recibirlos',
  zh: '回复 STOP 停止接收',
  bn: 'বন্ধ করতে STOP লিখুন',
};

const UNSUBSCRIBE: Record<MessageLanguage, string> = {
  en: 'To stop these alerts, open',
  es: 'Para dejar de recibir estas alertas, abra',
  zh: '如需停止接收这些提醒，请打开',
  bn: 'এই সতর্কবার্তা বন্ধ করতে খুলুন',
};

/** A monthly rent range as the listing's units give it ('$1,150 – $1,840'). */
export function rentRange(min: unknown, max: unknown): string {
  const dollars = (v: unknown) => `$${Math.round(Number(v) || 0).toLocaleString('en-US')}`;
  return Number(min) === Number(max) ? dollars(min) : `${dollars(min)} – ${dollars(max)}`;
}

export const alertConfirmTemplate = defineTemplate<{ path: string }>({
  name: 'listing-alert-confirm',
  secretParams: ['path'],
  render(language, p, ctx) {
    const link = portalLink(ctx, str(p.path));
    const texts = {
      en: {
        subject: 'Confirm your listing alerts',
        text: `Someone asked the Housing Portal to send listing alerts to this address. To start them, open this link and press "Confirm":\n\n${link}\n\nIf it was not you, do nothing: no alerts are sent without a confirmation.`,
      },
      es: {
        subject: 'Confirme sus alertas de anuncios',
        text: `Alguien pidió al Portal de Vivienda que envíe alertas de anuncios a esta dirección. Para empezar a recibirlas, abra este enlace y pulse «Confirmar»:\n\n${link}\n\nSi no fue usted, no haga nada: no se envía ninguna alerta sin confirmación.`,
      },
      zh: {
        subject: '请确认您的房源提醒',
        text: `有人请求住房门户向此地址发送房源提醒。如需开始接收，请打开以下链接并点击"确认"：\n\n${link}\n\n如果不是您本人，请忽略此邮件：未经确认不会发送任何提醒。`,
      },
      bn: {
        subject: 'আপনার তালিকা সতর্কবার্তা নিশ্চিত করুন',
        text: `কেউ হাউজিং পোর্টালকে এই ঠিকানায় তালিকা সতর্কবার্তা পাঠাতে বলেছেন। শুরু করতে এই লিংকটি খুলে "নিশ্চিত করুন" চাপুন:\n\n${link}\n\nআপনি না হলে কিছু করবেন না: নিশ্চিতকরণ ছাড়া কোনো সতর্কবার্তা পাঠানো হয় না।`,
      },
    };
    const sms: Record<MessageLanguage, string> = {
      en: 'reply YES to get listing alerts.',
      es: 'responda YES para recibir alertas de anuncios.',
      zh: '回复 YES 以接收房源提醒。',
      bn: 'তালিকা সতর্কবার্তা পেতে YES লিখে উত্তর দিন।',
    };
    return { ...texts[language], sms: `${SMS_BRAND[language]}: ${sms[language]} ${STOP[language]}` };
  },
});

const NEW_LISTING_SMS: Record<MessageLanguage, string> = {
  en: 'a new listing fits your alert:',
  es: 'un nuevo anuncio coincide con su alerta:',
  zh: '有新房源符合您的提醒：',
  bn: 'নতুন তালিকা মিলেছে:',
};

export const listingAlertTemplate = defineTemplate<{ listingName: string; deadline: string; rentMin: number; rentMax: number; listingPath: string; unsubscribeToken: string }>({
  name: 'listing-alert',
  secretParams: ['unsubscribeToken'],
  render(language, p, ctx) {
    const name = str(p.listingName);
    const deadline = str(p.deadline);
    const rent = rentRange(p.rentMin, p.rentMax);
    const link = portalLink(ctx, str(p.listingPath));
    const stop = `${UNSUBSCRIBE[language]} ${unsubscribePage(ctx, p.unsubscribeToken)}`;
    const texts = {
      en: { subject: `New listing: ${name}`, text: `A listing that fits your alert was published: ${name}.\n\nMonthly rent: ${rent}\nApply by: ${deadline}\n\n${link}\n\n${stop}` },
      es: { subject: `Nuevo anuncio: ${name}`, text: `Se publicó un anuncio que coincide con su alerta: ${name}.\n\nAlquiler mensual: ${rent}\nSolicite antes del: ${deadline}\n\n${link}\n\n${stop}` },
      zh: { subject: `新房源：${name}`, text: `符合您提醒条件的房源已发布：${name}。\n\n月租：${rent}\n申请截止：${deadline}\n\n${link}\n\n${stop}` },
      bn: { subject: `নতুন তালিকা: ${name}`, text: `আপনার সতর্কবার্তার সাথে মেলে এমন একটি তালিকা প্রকাশিত হয়েছে: ${name}।\n\nমাসিক ভাড়া: ${rent}\nআবেদনের শেষ তারিখ: ${deadline}\n\n${link}\n\n${stop}` },
    };
    return {
      ...texts[language],
      sms: `${SMS_BRAND[language]}: ${NEW_LISTING_SMS[language]} ${base(ctx)}/public/opportunities ${STOP[language]}`,
      headers: unsubscribeHeaders(ctx, p.unsubscribeToken),
    };
  },
});

export interface DigestListing {
  listingName: string;
  deadline: string;
  rentMin: number;
  rentMax: number;
  listingPath: string;
}

const DIGEST_SMS: Record<MessageLanguage, string> = {
  en: 'new listings fit your alert this week:',
  es: 'nuevos anuncios coinciden con su alerta esta semana:',
  zh: '本周有新房源符合您的提醒：',
  bn: 'এই সপ্তাহের নতুন তালিকা:',
};

export const listingDigestTemplate = defineTemplate<{ listings: DigestListing[]; unsubscribeToken: string }>({
  name: 'listing-alert-digest',
  secretParams: ['unsubscribeToken'],
  render(language, p, ctx) {
    const listings = Array.isArray(p.listings) ? (p.listings as DigestListing[]) : [];
    const lines = listings.map((l) => `- ${str(l.listingName)}: ${rentRange(l.rentMin, l.rentMax)}, ${str(l.deadline)}\n  ${portalLink(ctx, str(l.listingPath))}`).join('\n');
    const stop = `${UNSUBSCRIBE[language]} ${unsubscribePage(ctx, p.unsubscribeToken)}`;
    const texts = {
      en: { subject: 'Your weekly listing alert', text: `These listings that fit your alert were published this week (monthly rent, apply by):\n\n${lines}\n\n${stop}` },
      es: { subject: 'Su alerta semanal de anuncios', text: `Esta semana se publicaron estos anuncios que coinciden con su alerta (alquiler mensual, solicite antes del):\n\n${lines}\n\n${stop}` },
      zh: { subject: '您的每周房源提醒', text: `本周发布了以下符合您提醒条件的房源（月租，申请截止）：\n\n${lines}\n\n${stop}` },
      bn: { subject: 'আপনার সাপ্তাহিক তালিকা সতর্কবার্তা', text: `এই সপ্তাহে আপনার সতর্কবার্তার সাথে মেলে এমন এই তালিকাগুলো প্রকাশিত হয়েছে (মাসিক ভাড়া, আবেদনের শেষ তারিখ):\n\n${lines}\n\n${stop}` },
    };
    return {
      ...texts[language],
      sms: `${SMS_BRAND[language]}: ${DIGEST_SMS[language]} ${base(ctx)}/public/opportunities ${STOP[language]}`,
      headers: unsubscribeHeaders(ctx, p.unsubscribeToken),
    };
  },
});

export const listingAlertTemplates = [alertConfirmTemplate, listingAlertTemplate, listingDigestTemplate];
