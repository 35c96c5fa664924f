import { defineTemplate, portalLink, str, type MessageLanguage, smsNotice } from './types';

type Event = 'answered' | 'replied' | 'resolved' | 'escalated' | 'chat';

/**
 * Support tickets and messages with the managing office: the person is told there is
 * something new and where to read it. The text itself is never in the message (it is personal data
 * and the outbox row is not sealed); the ticket is named by its short reference.
 */
export const supportTicketTemplate = defineTemplate<{ event: Event; ticketId: string; ticketRef: string; audience: 'requester' | 'staff' }>({
  name: 'support-ticket',
  render(language, p, context) {
    const path = p.event === 'chat' ? '/dashboard?chat=open' : p.audience === 'staff' ? `/manager/support-ticket/${str(p.ticketId)}` : `/support-ticket/${str(p.ticketId)}`;
    const link = portalLink(context, path);
    const t = TEXTS[language][p.event](str(p.ticketRef));
    // The text names no ticket: the link opens the portal, where the person signs in to see which one.
    return { subject: t.subject, text: `${t.text}\n\n${link}`, sms: smsNotice(language, context, '/dashboard', SMS_LINE[language]) };
  },
});

type Text = { subject: string; text: string };
const TEXTS: Record<MessageLanguage, Record<Event, (ref: string) => Text>> = {
  en: {
    answered: (r) => ({ subject: `New answer on your support ticket ${r}`, text: `The managing office has answered your support ticket ${r}. Sign in to read it and reply.` }),
    replied: (r) => ({ subject: `New reply on support ticket ${r}`, text: `The person who opened support ticket ${r} has written again. Sign in to read it and answer.` }),
    resolved: (r) => ({ subject: `Your support ticket ${r} is resolved`, text: `Your support ticket ${r} has been marked resolved. If you still need help, reply within 7 days and it opens again.` }),
    escalated: (r) => ({ subject: `Support ticket ${r} has no answer yet`, text: `Support ticket ${r} was not answered within 2 business days. Please make sure someone answers it.` }),
    chat: () => ({ subject: 'New message from the managing office', text: 'You have a new message in the Housing Portal. Sign in to read it.' }),
  },
  es: {
    answered: (r) => ({ subject: `Nueva respuesta en su solicitud de ayuda ${r}`, text: `La oficina administradora respondió su solicitud de ayuda ${r}. Inicie sesión para leerla y contestar.` }),
    replied: (r) => ({ subject: `Nueva respuesta en la solicitud de ayuda ${r}`, text: `La persona que abrió la solicitud de ayuda ${r} escribió de nuevo. Inicie sesión para leerla y responder.` }),
    resolved: (r) => ({ subject: `Su solicitud de ayuda ${r} está resuelta`, text: `Su solicitud de ayuda ${r} se marcó como resuelta. Si todavía necesita ayuda, responda dentro de 7 días y se abrirá de nuevo.` }),
    escalated: (r) => ({ subject: `La solicitud de ayuda ${r} aún no tiene respuesta`, text: `La solicitud de ayuda ${r} no se respondió en 2 días hábiles. Asegúrese de que alguien la responda.` }),
    chat: () => ({ subject: 'Nuevo mensaje de la oficina administradora', text: 'Tiene un mensaje nuevo en el Portal de Vivienda. Inicie sesión para leerlo.' }),
  },
  zh: {
    answered: (r) => ({ subject: `您的支持请求 ${r} 有新回复`, text: `管理处已回复您的支持请求 ${r}。请登录查看并回复。` }),
    replied: (r) => ({ subject: `支持请求 ${r} 有新留言`, text: `提交支持请求 ${r} 的人再次留言。请登录查看并回复。` }),
    resolved: (r) => ({ subject: `您的支持请求 ${r} 已解决`, text: `您的支持请求 ${r} 已标记为已解决。如仍需帮助，请在 7 天内回复，请求将重新打开。` }),
    escalated: (r) => ({ subject: `支持请求 ${r} 尚未得到回复`, text: `支持请求 ${r} 在 2 个工作日内未得到回复。请确保有人回复。` }),
    chat: () => ({ subject: '管理处发来新消息', text: '您在住房门户中有一条新消息。请登录查看。' }),
  },
  bn: {
    answered: (r) => ({ subject: `আপনার সহায়তা টিকিট ${r}-এ নতুন উত্তর`, text: `ম্যানেজিং অফিস আপনার সহায়তা টিকিট ${r}-এর উত্তর দিয়েছে। পড়তে ও উত্তর দিতে সাইন ইন করুন।` }),
    replied: (r) => ({ subject: `সহায়তা টিকিট ${r}-এ নতুন বার্তা`, text: `সহায়তা টিকিট ${r} যিনি খুলেছেন তিনি আবার লিখেছেন। পড়তে ও উত্তর দিতে সাইন ইন করুন।` }),
    resolved: (r) => ({ subject: `আপনার সহায়তা টিকিট ${r} সমাধান হয়েছে`, text: `আপনার সহায়তা টিকিট ${r} সমাধান হিসেবে চিহ্নিত হয়েছে। এখনও সাহায্য লাগলে ৭ দিনের মধ্যে উত্তর দিন, টিকিটটি আবার খুলবে।` }),
    escalated: (r) => ({ subject: `সহায়তা টিকিট ${r}-এর এখনও উত্তর হয়নি`, text: `সহায়তা টিকিট ${r}-এর ২ কার্যদিবসের মধ্যে উত্তর দেওয়া হয়নি। অনুগ্রহ করে নিশ্চিত করুন যে কেউ উত্তর দেয়।` }),
    chat: () => ({ subject: 'ম্যানেজিং অফিস থেকে নতুন বার্তা', text: 'হাউজিং পোর্টালে আপনার একটি নতুন বার্তা আছে। পড়তে সাইন ইন করুন।' }),
  },
};

const SMS_LINE: Record<MessageLanguage, string> = {
  en: 'you have a new message about your support request. Sign in to read it:',
  es: 'tiene un mensaje nuevo sobre su solicitud de ayuda. Entre para leerlo:',
  zh: '您的支持请求有新消息。请登录查看：',
  bn: 'আপনার সহায়তা অনুরোধে নতুন বার্তা আছে। পড়তে সাইন ইন করুন:',
};
