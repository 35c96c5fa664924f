/**
 * Recertification messages in the tenant's language (spec sections 4 and 8).
 * `recertification-notice`: 120/90/60/30 days before the deadline; `recertification-expired`: the
 * deadline passed (contact the managing agent). Params: daysBefore, deadline (YYYY-MM-DD).
 */
import { OPEN_PORTAL, defineTemplate, portalLink, smsNotice, type MessageLanguage } from './types';

type Lang = MessageLanguage;
interface Params {
  daysBefore?: number;
  deadline?: string;
}

const recertificationNotice = {
  subject: {
    en: 'Your annual recertification is due',
    es: 'Su recertificación vence pronto',
    zh: '您的重新认证即将到期',
    bn: 'আপনার পুনঃপ্রত্যয়নের সময় হয়েছে',
  } satisfies Record<Lang, string>,
  body: {
    en: (p: Params) => `Your recertification is due on ${p.deadline} (${p.daysBefore} days from now). Please sign in to the portal to confirm or update your household profile.`,
    es: (p: Params) => `Su recertificación vence el ${p.deadline} (en ${p.daysBefore} días). Inicie sesión en el portal para confirmar o actualizar el perfil de su hogar.`,
    zh: (p: Params) => `您的重新认证截止日期为 ${p.deadline}（还有 ${p.daysBefore} 天）。请登录门户网站确认或更新您的家庭资料。`,
    bn: (p: Params) => `আপনার পুনঃপ্রত্যয়নের শেষ তারিখ ${p.deadline} (আর ${p.daysBefore} দিন বাকি)। অনুগ্রহ করে পোর্টালে সাইন ইন করে আপনার পরিবারের প্রোফাইল নিশ্চিত বা হালনাগাদ করুন।`,
  } satisfies Record<Lang, (p: Params) => string>,
};

const recertificationExpired = {
  subject: {
    en: 'Your recertification deadline has ended',
    es: 'El plazo de su recertificación ha terminado',
    zh: '您的重新认证截止日期已过',
    bn: 'আপনার পুনঃপ্রত্যয়নের সময়সীমা শেষ হয়েছে',
  } satisfies Record<Lang, string>,
  body: {
    en: (p: Params) => `The recertification deadline (${p.deadline}) has ended. Please contact the managing agent.`,
    es: (p: Params) => `El plazo de recertificación (${p.deadline}) ha terminado. Comuníquese con el agente administrador.`,
    zh: (p: Params) => `重新认证截止日期（${p.deadline}）已过。请联系物业管理代理。`,
    bn: (p: Params) => `পুনঃপ্রত্যয়নের সময়সীমা (${p.deadline}) শেষ হয়েছে। অনুগ্রহ করে ব্যবস্থাপনা এজেন্টের সাথে যোগাযোগ করুন।`,
  } satisfies Record<Lang, (p: Params) => string>,
};

export const recertificationNoticeTemplate = defineTemplate<{ daysBefore: number; deadline: string }>({
  name: 'recertification-notice',
  render(language, p, context) {
    const text = recertificationNotice.body[language](p);
    const withLink = `${text}\n\n${OPEN_PORTAL[language]}: ${portalLink(context, '/recertification')}`;
    return { subject: recertificationNotice.subject[language], text: withLink, sms: smsNotice(language, context, '/recertification', `${recertificationNotice.subject[language]}.`) };
  },
});

export const recertificationExpiredTemplate = defineTemplate<{ daysBefore: number; deadline: string }>({
  name: 'recertification-expired',
  render(language, p, context) {
    const text = recertificationExpired.body[language](p);
    const withLink = `${text}\n\n${OPEN_PORTAL[language]}: ${portalLink(context, '/recertification')}`;
    return { subject: recertificationExpired.subject[language], text: withLink, sms: smsNotice(language, context, '/recertification', `${recertificationExpired.subject[language]}.`) };
  },
});
