import type { Language } from '../../domain';

interface Facts {
  opportunityName: string;
  logNumber: string;
  claimCode: string;
}

/** The letter that carries a claim code issued again by the office, in the household's language. */
const TEXT: Record<Language, (f: Facts) => { title: string; lines: string[] }> = {
  en: (f) => ({
    title: 'Your new claim code',
    lines: [
      `You asked for a new code to follow your application for ${f.opportunityName} (log number ${f.logNumber}) online.`,
      `Create an account on the Housing Portal, open "Claim a paper application" and enter this code with the date of birth of the head of household. Your claim code: ${f.claimCode}`,
      'Any code we sent you before no longer works. This one works for 90 days.',
    ],
  }),
  es: (f) => ({
    title: 'Su nuevo código de reclamo',
    lines: [
      `Pidió un nuevo código para seguir en línea su solicitud para ${f.opportunityName} (número de registro ${f.logNumber}).`,
      `Cree una cuenta en el Portal de Vivienda, abra "Reclamar una solicitud en papel" e ingrese este código con la fecha de nacimiento del jefe del hogar. Su código: ${f.claimCode}`,
      'Los códigos que le enviamos antes ya no funcionan. Este funciona durante 90 días.',
    ],
  }),
  zh: (f) => ({
    title: '您的新认领码',
    lines: [
      `您申请了新的认领码，以便在线查看您对 ${f.opportunityName} 的申请（登记号 ${f.logNumber}）。`,
      `请在住房门户注册账户，打开"认领纸质申请"，并输入此认领码和户主的出生日期。您的认领码：${f.claimCode}`,
      '我们之前寄给您的认领码已失效。此认领码在 90 天内有效。',
    ],
  }),
  bn: (f) => ({
    title: 'আপনার নতুন দাবি কোড',
    lines: [
      `${f.opportunityName}-এর জন্য আপনার আবেদন (লগ নম্বর ${f.logNumber}) অনলাইনে দেখতে আপনি একটি নতুন কোড চেয়েছেন।`,
      `হাউজিং পোর্টালে একটি অ্যাকাউন্ট খুলুন, "কাগজের আবেদন দাবি করুন" খুলুন এবং পরিবারের প্রধানের জন্মতারিখসহ এই কোডটি লিখুন। আপনার দাবি কোড: ${f.claimCode}`,
      'আগে পাঠানো কোনো কোড আর কাজ করবে না। এই কোডটি ৯০ দিন কাজ করবে।',
    ],
  }),
};

export const claimCodeLetter = (language: Language, facts: Facts) => TEXT[language](facts);
