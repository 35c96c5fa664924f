/**
 * Lease-up messages to the applicant in their language, sent by the workflow (its timers and the manager's decisions):
 * `lease-up-documents-overdue` (params dueAt), `lease-up-offer-expired` (offerId),
 * `lease-up-appointment-reminder` (appointmentAt, ISO time; sent 1 day and 1 hour before),
 * `lease-up-reminder` (note: the manager's own words, optional); `lease-up-offer-made`,
 * `lease-up-appeal-granted`, `lease-up-appeal-denied` (the manager's decisions, no params);
 * `lottery-invitation` (sent by the lottery when it invites the household, no params).
 */
import { OPEN_PORTAL, defineTemplate, portalLink, smsNotice, str, type MessageLanguage } from './types';

type Lang = MessageLanguage;
const day = (iso: unknown) => str(iso).slice(0, 10);
const note = (p: Record<string, unknown>, label: string) => (str(p.note) ? `\n\n${label}: ${str(p.note)}` : '');
const time = (iso: unknown) => str(iso).replace('T', ' ').slice(0, 16) + (str(iso) ? ' UTC' : '');

const texts = {
  'lease-up-documents-overdue': {
    subject: { en: 'Documents for your housing application are overdue', es: 'Los documentos de su solicitud de vivienda están atrasados', zh: '您的住房申请所需文件已逾期', bn: 'আপনার আবাসন আবেদনের নথি জমার সময় পেরিয়ে গেছে' },
    body: {
      en: (p: Record<string, unknown>) => `The documents requested for your application were due on ${day(p.dueAt)}. Please sign in to the portal and send them, or tell us why you cannot.`,
      es: (p: Record<string, unknown>) => `Los documentos solicitados para su solicitud vencían el ${day(p.dueAt)}. Inicie sesión en el portal y envíelos, o díganos por qué no puede.`,
      zh: (p: Record<string, unknown>) => `您申请所需的文件截止日期为 ${day(p.dueAt)}。请登录门户网站提交，或告诉我们无法提交的原因。`,
      bn: (p: Record<string, unknown>) => `আপনার আবেদনের জন্য চাওয়া নথির শেষ তারিখ ছিল ${day(p.dueAt)}। অনুগ্রহ করে পোর্টালে সাইন ইন করে সেগুলো পাঠান, অথবা কেন পারছেন না তা জানান।`,
    },
  },
  'lease-up-offer-expired': {
    subject: { en: 'A unit offer has expired', es: 'Una oferta de unidad ha vencido', zh: '一个单元要约已过期', bn: 'একটি ইউনিটের প্রস্তাবের মেয়াদ শেষ হয়েছে' },
    body: {
      en: () => 'A unit offer on your housing application expired without an answer. The property manager may offer you another unit.',
      es: () => 'Una oferta de unidad de su solicitud de vivienda venció sin respuesta. El administrador puede ofrecerle otra unidad.',
      zh: () => '您住房申请中的一个单元要约因未答复而过期。物业经理可能会为您提供其他单元。',
      bn: () => 'আপনার আবাসন আবেদনের একটি ইউনিটের প্রস্তাব উত্তর ছাড়াই মেয়াদোত্তীর্ণ হয়েছে। সম্পত্তি ব্যবস্থাপক আপনাকে অন্য ইউনিট প্রস্তাব করতে পারেন।',
    },
  },
  'lease-up-appointment-reminder': {
    subject: { en: 'Reminder: your housing appointment', es: 'Recordatorio: su cita de vivienda', zh: '提醒：您的住房预约', bn: 'স্মরণ করিয়ে দেওয়া: আপনার আবাসন অ্যাপয়েন্টমেন্ট' },
    body: {
      en: (p: Record<string, unknown>) => `Your appointment is on ${time(p.appointmentAt)}. You can see or change it in the portal.`,
      es: (p: Record<string, unknown>) => `Su cita es el ${time(p.appointmentAt)}. Puede verla o cambiarla en el portal.`,
      zh: (p: Record<string, unknown>) => `您的预约时间为 ${time(p.appointmentAt)}。您可以在门户网站查看或更改。`,
      bn: (p: Record<string, unknown>) => `আপনার অ্যাপয়েন্টমেন্ট ${time(p.appointmentAt)}। আপনি পোর্টালে এটি দেখতে বা বদলাতে পারেন।`,
    },
  },
  // The lottery invited the household to the next step: its application is under review.
  'lottery-invitation': {
    subject: { en: 'Your lottery application was selected', es: 'Su solicitud de lotería fue seleccionada', zh: '您的抽签申请已被选中', bn: 'আপনার লটারির আবেদন নির্বাচিত হয়েছে' },
    body: {
      en: () => 'Your application was selected in the lottery and is now under review. Please sign in to the portal to see what documents to send.',
      es: () => 'Su solicitud fue seleccionada en la lotería y ahora está en revisión. Inicie sesión en el portal para ver qué documentos enviar.',
      zh: () => '您的申请已在抽签中被选中，现正在审核中。请登录门户网站查看需要提交哪些文件。',
      bn: () => 'লটারিতে আপনার আবেদন নির্বাচিত হয়েছে এবং এখন পর্যালোচনায় আছে। কোন নথি পাঠাতে হবে দেখতে পোর্টালে সাইন ইন করুন।',
    },
  },
  'lease-up-offer-made': {
    subject: { en: 'You have a unit offer', es: 'Tiene una oferta de unidad', zh: '您收到一个单元要约', bn: 'আপনি একটি ইউনিটের প্রস্তাব পেয়েছেন' },
    body: {
      en: () => 'The property manager offered you a unit on your housing application. Please sign in to the portal to see it and answer before the offer expires.',
      es: () => 'El administrador le ofreció una unidad en su solicitud de vivienda. Inicie sesión en el portal para verla y responder antes de que venza la oferta.',
      zh: () => '物业经理在您的住房申请中为您提供了一个单元。请在要约过期前登录门户网站查看并答复。',
      bn: () => 'সম্পত্তি ব্যবস্থাপক আপনার আবাসন আবেদনে আপনাকে একটি ইউনিট প্রস্তাব করেছেন। প্রস্তাবের মেয়াদ শেষ হওয়ার আগে দেখতে ও উত্তর দিতে পোর্টালে সাইন ইন করুন।',
    },
  },
  'lease-up-appeal-granted': {
    subject: { en: 'Your appeal was granted', es: 'Su apelación fue aceptada', zh: '您的申诉已获批准', bn: 'আপনার আপিল মঞ্জুর হয়েছে' },
    body: {
      en: () => 'The property manager granted your appeal: your housing application is under review again. Please sign in to the portal to see the next step.',
      es: () => 'El administrador aceptó su apelación: su solicitud de vivienda vuelve a estar en revisión. Inicie sesión en el portal para ver el próximo paso.',
      zh: () => '物业经理批准了您的申诉：您的住房申请将重新审核。请登录门户网站查看下一步。',
      bn: () => 'সম্পত্তি ব্যবস্থাপক আপনার আপিল মঞ্জুর করেছেন: আপনার আবাসন আবেদন আবার পর্যালোচনায় আছে। পরের ধাপ দেখতে পোর্টালে সাইন ইন করুন।',
    },
  },
  'lease-up-appeal-denied': {
    subject: { en: 'A decision on your appeal', es: 'Una decisión sobre su apelación', zh: '关于您申诉的决定', bn: 'আপনার আপিলের সিদ্ধান্ত' },
    body: {
      en: () => 'The property manager denied your appeal, and your housing application is closed. Please sign in to the portal to read the decision.',
      es: () => 'El administrador rechazó su apelación y su solicitud de vivienda está cerrada. Inicie sesión en el portal para leer la decisión.',
      zh: () => '物业经理驳回了您的申诉，您的住房申请已关闭。请登录门户网站查看决定。',
      bn: () => 'সম্পত্তি ব্যবস্থাপক আপনার আপিল নামঞ্জুর করেছেন এবং আপনার আবাসন আবেদন বন্ধ হয়েছে। সিদ্ধান্ত পড়তে পোর্টালে সাইন ইন করুন।',
    },
  },
  // Sent by the manager (one application, or many in a bulk action): the note is theirs.
  'lease-up-reminder': {
    subject: { en: 'Reminder: your housing application needs you', es: 'Recordatorio: su solicitud de vivienda le necesita', zh: '提醒：您的住房申请需要您处理', bn: 'স্মরণ করিয়ে দেওয়া: আপনার আবাসন আবেদনে আপনার পদক্ষেপ দরকার' },
    body: {
      en: (p: Record<string, unknown>) => `Your housing application is waiting for your next step. Please sign in to the portal to see what to do.${note(p, 'Note from the property manager')}`,
      es: (p: Record<string, unknown>) => `Su solicitud de vivienda espera su próximo paso. Inicie sesión en el portal para ver qué hacer.${note(p, 'Nota del administrador de la propiedad')}`,
      zh: (p: Record<string, unknown>) => `您的住房申请正在等待您的下一步操作。请登录门户网站查看需要做什么。${note(p, '物业经理的留言')}`,
      bn: (p: Record<string, unknown>) => `আপনার আবাসন আবেদন আপনার পরবর্তী পদক্ষেপের অপেক্ষায় আছে। কী করতে হবে দেখতে অনুগ্রহ করে পোর্টালে সাইন ইন করুন।${note(p, 'সম্পত্তি ব্যবস্থাপকের বার্তা')}`,
    },
  },
} as const satisfies Record<string, { subject: Record<Lang, string>; body: Record<Lang, (p: Record<string, unknown>) => string> }>;

export const leaseUpTemplates = (Object.keys(texts) as (keyof typeof texts)[]).map((name) =>
  defineTemplate<Record<string, unknown>>({
    name,
    render(language, p, context) {
      const text = texts[name].body[language](p);
      const withLink = `${text}\n\n${OPEN_PORTAL[language]}: ${portalLink(context, '/myApplications')}`;
      return { subject: texts[name].subject[language], text: withLink, sms: smsNotice(language, context, '/myApplications', `${texts[name].subject[language]}.`) };
    },
  }),
);
