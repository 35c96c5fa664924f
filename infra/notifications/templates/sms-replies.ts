import type { SmsKeyword } from '../../../domain/sms';
import { SMS_BRAND, type MessageLanguage } from './types';

/**
 * The portal's answers to a text sent to its number: STOP and START confirmed, HELP answered, and
 * anything else told that the number is not read. In the language of the account with that number.
 */
const LINES: Record<SmsKeyword | 'other', Record<MessageLanguage, string>> = {
  stop: {
    en: 'you will get no more texts from us. Reply START to get them again.',
    es: 'ya no le enviaremos mensajes de texto. Responda START para volver a recibirlos.',
    zh: '您将不再收到我们的短信。回复 START 可重新接收。',
    bn: 'আপনি আর আমাদের টেক্সট পাবেন না। আবার পেতে START লিখে উত্তর দিন।',
  },
  start: {
    en: 'you will get texts from us again. Reply STOP to stop them, HELP for help.',
    es: 'volverá a recibir nuestros mensajes. Responda STOP para dejarlos o HELP para ayuda.',
    zh: '您将重新收到我们的短信。回复 STOP 停止，回复 HELP 获取帮助。',
    bn: 'আপনি আবার আমাদের টেক্সট পাবেন। বন্ধ করতে STOP, সাহায্যের জন্য HELP লিখুন।',
  },
  help: {
    en: 'notices about your housing. Sign in to the portal or call your managing office. Reply STOP to stop texts.',
    es: 'avisos sobre su vivienda. Entre al portal o llame a su oficina administradora. Responda STOP para dejarlos.',
    zh: '有关您住房的通知。请登录门户网站或致电管理处。回复 STOP 停止短信。',
    bn: 'আপনার আবাসন বিষয়ে নোটিশ। পোর্টালে সাইন ইন করুন বা ম্যানেজিং অফিসে ফোন করুন। বন্ধ করতে STOP লিখুন।',
  },
  other: {
    en: 'this number does not read replies. Sign in to the portal to write to us. Reply HELP for help.',
    es: 'este número no lee respuestas. Entre al portal para escribirnos. Responda HELP para ayuda.',
    zh: '此号码不读取回复。请登录门户网站联系我们。回复 HELP 获取帮助。',
    bn: 'এই নম্বরে উত্তর পড়া হয় না। আমাদের লিখতে পোর্টালে সাইন ইন করুন। সাহায্যের জন্য HELP লিখুন।',
  },
};

export function smsReplyText(keyword: SmsKeyword | null, language: MessageLanguage): string {
  return `${SMS_BRAND[language]}: ${LINES[keyword ?? 'other'][language]}`;
}

export const SMS_REPLY_KINDS = ['stop', 'start', 'help', null] as const;
