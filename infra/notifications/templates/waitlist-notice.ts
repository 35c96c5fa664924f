import { defineTemplate, portalLink, str, smsNotice, type MessageLanguage, type RenderContext } from './types';

/**
 * A waitlist's check-ins (domain/waitlist-check-ins.ts): the question, its reminder, the place made
 * inactive, and removed. The email carries a signed-out link (its token is wiped from the outbox
 * once sent); a text asks for a YES and links to My Applications (no token, no name, no date in a
 * text); a printed letter (rendered with no base address) asks the household to sign and return it.
 */
type Params = {
  opportunityName?: string;
  answerBy?: string;
  restoreBy?: string;
  path?: string;
  applicationId?: string;
};

type Lang = MessageLanguage;
const isLetter = (ctx: RenderContext) => ctx.baseUrl === '';

const RETURN_LETTER: Record<Lang, (date: string) => string> = {
  en: (d) => `To keep your place, sign this letter and mail it back to the office, or bring it in, by ${d}. You can also call the office.`,
  es: (d) => `Para conservar su lugar, firme esta carta y envíela por correo a la oficina, o tráigala, antes del ${d}. También puede llamar a la oficina.`,
  zh: (d) => `如需保留您的位置，请在 ${d} 之前签署此信并寄回或送到办公室。您也可以致电办公室。`,
  bn: (d) => `আপনার স্থান রাখতে, ${d}-এর মধ্যে এই চিঠিতে সই করে অফিসে ডাকে পাঠান বা নিয়ে আসুন। আপনি অফিসে ফোনও করতে পারেন।`,
};

const SIGNATURE: Record<Lang, string> = {
  en: 'Yes, we still want our place on this waitlist. Signature: ____________________',
  es: 'Sí, todavía queremos nuestro lugar en esta lista de espera. Firma: ____________________',
  zh: '是的，我们仍希望保留在此候补名单上的位置。签名：____________________',
  bn: 'হ্যাঁ, আমরা এখনও এই অপেক্ষা তালিকায় আমাদের স্থান চাই। সই: ____________________',
};

function checkIn(kind: 'ask' | 'reminder') {
  const subject: Record<Lang, (name: string) => string> = {
    en: (n) => (kind === 'ask' ? `Do you still want your place on the ${n} waitlist?` : `Reminder: keep your place on the ${n} waitlist`),
    es: (n) => (kind === 'ask' ? `¿Todavía quiere su lugar en la lista de espera de ${n}?` : `Recordatorio: conserve su lugar en la lista de espera de ${n}`),
    zh: (n) => (kind === 'ask' ? `您仍希望保留在 ${n} 候补名单上的位置吗？` : `提醒：请保留您在 ${n} 候补名单上的位置`),
    bn: (n) => (kind === 'ask' ? `আপনি কি এখনও ${n}-এর অপেক্ষা তালিকায় আপনার স্থান চান?` : `মনে করিয়ে দেওয়া: ${n}-এর অপেক্ষা তালিকায় আপনার স্থান রাখুন`),
  };
  const body: Record<Lang, (name: string, date: string, link: string) => string> = {
    en: (n, d, l) => `Your household is on the waitlist of ${n}. Please tell us by ${d} that you still want your place: open this link and press "Keep my place", or reply YES to our text message.\n\n${l}\n\nIf we do not hear from you by then, your place becomes inactive: you keep your rank but are not invited until you restore it.`,
    es: (n, d, l) => `Su hogar está en la lista de espera de ${n}. Díganos antes del ${d} que todavía quiere su lugar: abra este enlace y pulse "Conservar mi lugar", o responda SÍ (YES) a nuestro mensaje de texto.\n\n${l}\n\nSi no sabemos de usted para entonces, su lugar quedará inactivo: conserva su número pero no se le invitará hasta que lo restablezca.`,
    zh: (n, d, l) => `您的家庭在 ${n} 的候补名单上。请在 ${d} 之前告诉我们您仍希望保留位置：打开此链接并点击"保留我的位置"，或回复短信 YES。\n\n${l}\n\n如果届时我们未收到您的回复，您的位置将变为非活动状态：您保留排名，但在恢复之前不会被邀请。`,
    bn: (n, d, l) => `আপনার পরিবার ${n}-এর অপেক্ষা তালিকায় আছে। ${d}-এর মধ্যে আমাদের জানান যে আপনি এখনও আপনার স্থান চান: এই লিংকটি খুলে "আমার স্থান রাখুন" চাপুন, অথবা আমাদের টেক্সট মেসেজে YES উত্তর দিন।\n\n${l}\n\nততদিনে আপনার কাছ থেকে না শুনলে আপনার স্থান নিষ্ক্রিয় হবে: আপনার র‍্যাঙ্ক থাকবে, কিন্তু পুনরুদ্ধার না করা পর্যন্ত আমন্ত্রণ পাবেন না।`,
  };
  const sms: Record<Lang, string> = {
    en: kind === 'ask' ? 'reply YES to keep your place on a waitlist, or see:' : 'reminder: reply YES to keep your waitlist place, or see:',
    es: kind === 'ask' ? 'responda YES para conservar su lugar en una lista de espera, o vea:' : 'recordatorio: responda YES para conservar su lugar, o vea:',
    zh: kind === 'ask' ? '回复 YES 保留您的候补位置，或查看：' : '提醒：回复 YES 保留您的候补位置，或查看：',
    bn: kind === 'ask' ? 'অপেক্ষা তালিকায় স্থান রাখতে YES লিখুন, অথবা দেখুন:' : 'মনে রাখুন: স্থান রাখতে YES লিখুন, অথবা দেখুন:',
  };
  return defineTemplate<Params>({
    name: kind === 'ask' ? 'waitlist-check-in' : 'waitlist-check-in-reminder',
    secretParams: ['path'],
    render(language, p, ctx) {
      const name = str(p.opportunityName);
      const date = str(p.answerBy);
      const text = isLetter(ctx) ? `${body[language](name, date, '').split('\n\n')[0]}\n${RETURN_LETTER[language](date)}\n${SIGNATURE[language]}` : body[language](name, date, portalLink(ctx, str(p.path)));
      return { subject: subject[language](name), text, sms: smsNotice(language, ctx, '/myApplications', sms[language]) };
    },
  });
}

export const waitlistCheckInTemplate = checkIn('ask');
export const waitlistReminderTemplate = checkIn('reminder');

export const waitlistInactiveTemplate = defineTemplate<Params>({
  name: 'waitlist-inactive',
  secretParams: ['path'],
  render(language, p, ctx) {
    const n = str(p.opportunityName);
    const d = str(p.restoreBy);
    const link = isLetter(ctx) ? '' : portalLink(ctx, str(p.path));
    const texts = {
      en: { subject: `Your place on the ${n} waitlist is inactive`, text: `We did not hear from you, so your place on the waitlist of ${n} is now inactive. You keep your rank, but you are not invited while it is inactive. You can restore your place until ${d}; after that it is removed.\n\n${link}` },
      es: { subject: `Su lugar en la lista de espera de ${n} está inactivo`, text: `No supimos de usted, así que su lugar en la lista de espera de ${n} ahora está inactivo. Conserva su número, pero no se le invita mientras esté inactivo. Puede restablecer su lugar hasta el ${d}; después se eliminará.\n\n${link}` },
      zh: { subject: `您在 ${n} 候补名单上的位置已变为非活动`, text: `我们未收到您的回复，因此您在 ${n} 候补名单上的位置现已变为非活动状态。您保留排名，但在非活动期间不会被邀请。您可以在 ${d} 之前恢复您的位置；之后将被移除。\n\n${link}` },
      bn: { subject: `${n}-এর অপেক্ষা তালিকায় আপনার স্থান নিষ্ক্রিয়`, text: `আমরা আপনার কাছ থেকে শুনিনি, তাই ${n}-এর অপেক্ষা তালিকায় আপনার স্থান এখন নিষ্ক্রিয়। আপনার র‍্যাঙ্ক থাকছে, কিন্তু নিষ্ক্রিয় থাকাকালীন আমন্ত্রণ পাবেন না। ${d} পর্যন্ত আপনি স্থান পুনরুদ্ধার করতে পারেন; তারপর তা সরিয়ে দেওয়া হবে।\n\n${link}` },
    };
    const t = texts[language];
    return { subject: t.subject, text: isLetter(ctx) ? `${t.text.trim()}\n${RETURN_LETTER[language](d)}\n${SIGNATURE[language]}` : t.text, sms: smsNotice(language, ctx, '/myApplications', INACTIVE_SMS[language]) };
  },
});

const INACTIVE_SMS: Record<Lang, string> = {
  en: 'your waitlist place is inactive. Restore it at:',
  es: 'su lugar en la lista de espera está inactivo. Vea:',
  zh: '您的候补位置已变为非活动。请在此恢复：',
  bn: 'আপনার অপেক্ষা তালিকার স্থান নিষ্ক্রিয়। পুনরুদ্ধার করুন:',
};

export const waitlistRemovedTemplate = defineTemplate<Params>({
  name: 'waitlist-removed',
  render(language, p, ctx) {
    const n = str(p.opportunityName);
    const link = isLetter(ctx) ? '' : `\n\n${portalLink(ctx, '/myApplications')}`;
    const texts = {
      en: { subject: `You were removed from the ${n} waitlist`, text: `Your place on the waitlist of ${n} was inactive and was not restored, so it has been removed. If you think this is a mistake, contact the managing office.${link}` },
      es: { subject: `Se le eliminó de la lista de espera de ${n}`, text: `Su lugar en la lista de espera de ${n} estaba inactivo y no se restableció, por lo que se eliminó. Si cree que es un error, comuníquese con la oficina de administración.${link}` },
      zh: { subject: `您已被移出 ${n} 候补名单`, text: `您在 ${n} 候补名单上的位置处于非活动状态且未恢复，因此已被移除。如果您认为这是错误，请联系管理办公室。${link}` },
      bn: { subject: `আপনাকে ${n}-এর অপেক্ষা তালিকা থেকে সরানো হয়েছে`, text: `${n}-এর অপেক্ষা তালিকায় আপনার স্থান নিষ্ক্রিয় ছিল এবং পুনরুদ্ধার করা হয়নি, তাই তা সরিয়ে দেওয়া হয়েছে। ভুল মনে হলে ব্যবস্থাপনা অফিসে যোগাযোগ করুন।${link}` },
    };
    return { ...texts[language], sms: smsNotice(language, ctx, '/myApplications', REMOVED_SMS[language]) };
  },
});

const REMOVED_SMS: Record<Lang, string> = {
  en: 'your place on a waitlist was removed. See:',
  es: 'se eliminó su lugar en una lista de espera. Vea:',
  zh: '您的候补位置已被移除。查看：',
  bn: 'অপেক্ষা তালিকায় আপনার স্থান সরানো হয়েছে। দেখুন:',
};

export const waitlistTemplates = [waitlistCheckInTemplate, waitlistReminderTemplate, waitlistInactiveTemplate, waitlistRemovedTemplate];
