import { phoneKey } from '../../domain';
import type { Db } from '../../infra/db/database';
import { confirmByText } from '../../infra/db/repositories/waitlist';
import { SMS_BRAND, type MessageLanguage } from '../../infra/notifications/templates';

/** Whether an inbound text is the one-word YES a waitlist check-in asks for. */
export const isYes = (body: string): boolean => /^(yes|s[ií])$/i.test(body.trim().replace(/[.!]+$/, ''));

/**
 * A YES from a number whose household has an open waitlist check-in keeps its place (each open
 * check-in of the households that number heads). Answers how many were kept.
 */
export async function confirmWaitlistByText(db: Db, from: string, now = Date.now()): Promise<number> {
  return confirmByText(db, phoneKey(from), now);
}

const KEPT: Record<MessageLanguage, string> = {
  en: 'thank you, your place on the waitlist is kept.',
  es: 'gracias, conservamos su lugar en la lista de espera.',
  zh: '谢谢，您的候补位置已保留。',
  bn: 'ধন্যবাদ, অপেক্ষা তালিকায় আপনার স্থান রাখা হয়েছে।',
};

/** The reply to a YES that kept a place. */
export const waitlistKeptText = (language: MessageLanguage): string => `${SMS_BRAND[language]}: ${KEPT[language]}`;
