/**
 * Temporary relocation messages in the tenant's language. `relocation-reminder`: 30, 14
 * and 7 days before the stay ends; `relocation-overdue`: the end has passed. Params: daysBefore, endsAt.
 */
import { OPEN_PORTAL, defineTemplate, portalLink, smsNotice, type MessageLanguage } from './types';

type Lang = MessageLanguage;
interface Params {
  daysBefore?: number;
  endsAt?: string;
}
const day = (p: Params) => (p.endsAt ?? '').slice(0, 10);

const relocationReminder = {
  subject: {
    en: 'Your temporary relocation is ending soon',
    es: 'Su reubicación temporal termina pronto',
    zh: '您的临时搬迁即将结束',
    bn: 'আপনার অস্থায়ী স্থানান্তর শীঘ্রই শেষ হচ্ছে',
  } satisfies Record<Lang, string>,
  body: {
    en: (p: Params) => `Your temporary relocation ends on ${day(p)} (${p.daysBefore} days from now). Your managing agent will contact you about your return home.`,
    es: (p: Params) => `Su reubicación temporal termina el ${day(p)} (en ${p.daysBefore} días). Su agente administrador se comunicará con usted sobre su regreso a casa.`,
    zh: (p: Params) => `您的临时搬迁将于 ${day(p)} 结束（还有 ${p.daysBefore} 天）。物业管理代理会就您搬回家的事宜与您联系。`,
    bn: (p: Params) => `আপনার অস্থায়ী স্থানান্তর ${day(p)} তারিখে শেষ হবে (আর ${p.daysBefore} দিন বাকি)। আপনার বাড়ি ফেরার বিষয়ে ব্যবস্থাপনা এজেন্ট আপনার সাথে যোগাযোগ করবেন।`,
  } satisfies Record<Lang, (p: Params) => string>,
};

const relocationOverdue = {
  subject: {
    en: 'Your temporary relocation has reached its end date',
    es: 'Su reubicación temporal llegó a su fecha de fin',
    zh: '您的临时搬迁已到结束日期',
    bn: 'আপনার অস্থায়ী স্থানান্তরের শেষ তারিখ পেরিয়ে গেছে',
  } satisfies Record<Lang, string>,
  body: {
    en: (p: Params) => `Your temporary relocation ended on ${day(p)}. Please contact the managing agent.`,
    es: (p: Params) => `Su reubicación temporal terminó el ${day(p)}. Comuníquese con el agente administrador.`,
    zh: (p: Params) => `您的临时搬迁已于 ${day(p)} 结束。请联系物业管理代理。`,
    bn: (p: Params) => `আপনার অস্থায়ী স্থানান্তর ${day(p)} তারিখে শেষ হয়েছে। অনুগ্রহ করে ব্যবস্থাপনা এজেন্টের সাথে যোগাযোগ করুন।`,
  } satisfies Record<Lang, (p: Params) => string>,
};

export const relocationReminderTemplate = defineTemplate<{ daysBefore: number; endsAt: string }>({
  name: 'relocation-reminder',
  render(language, p, context) {
    const text = relocationReminder.body[language](p);
    const withLink = `${text}\n\n${OPEN_PORTAL[language]}: ${portalLink(context, '/relocation')}`;
    return { subject: relocationReminder.subject[language], text: withLink, sms: smsNotice(language, context, '/relocation', `${relocationReminder.subject[language]}.`) };
  },
});

export const relocationOverdueTemplate = defineTemplate<{ daysBefore: number; endsAt: string }>({
  name: 'relocation-overdue',
  render(language, p, context) {
    const text = relocationOverdue.body[language](p);
    const withLink = `${text}\n\n${OPEN_PORTAL[language]}: ${portalLink(context, '/relocation')}`;
    return { subject: relocationOverdue.subject[language], text: withLink, sms: smsNotice(language, context, '/relocation', `${relocationOverdue.subject[language]}.`) };
  },
});
