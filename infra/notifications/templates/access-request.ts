import { defineTemplate, str, SMS_BRAND, type MessageLanguage } from './types';

/**
 * An ambassador asks to act for the household. The code is read out at the ambassador's
 * desk; the household can also answer in its settings, or ignore the request.
 */
export const accessRequestTemplate = defineTemplate<{ code: string; minutes: number; ambassadorName: string; organizationName: string; periodDays: number }>({
  name: 'access-request',
  secretParams: ['code'],
  smsParams: ['code', 'minutes'],
  render(language, p, { baseUrl }) {
    const code = str(p.code);
    const minutes = str(p.minutes);
    const who = str(p.ambassadorName);
    const org = str(p.organizationName);
    const days = str(p.periodDays);
    const settings = `${baseUrl}/profile-setting`;
    const texts = {
      en: {
        subject: `${org} asks to help you with your housing account`,
        text: `${who} of ${org} asks to act for you in the Housing Portal for ${days} days.\n\nTo agree at their desk, tell them this code: ${code} (it works for ${minutes} minutes).\nYou can also answer in your settings: ${settings}\n\nEverything they do for you is listed in your settings, and you can stop their access at any time. If you did not ask for help, ignore this message.`,
      },
      es: {
        subject: `${org} pide ayudarle con su cuenta de vivienda`,
        text: `${who} de ${org} pide actuar en su nombre en el Portal de Vivienda durante ${days} días.\n\nPara aceptar en su oficina, dígale este código: ${code} (funciona durante ${minutes} minutos).\nTambién puede responder en su configuración: ${settings}\n\nTodo lo que hagan por usted aparece en su configuración, y puede quitarles el acceso en cualquier momento. Si no pidió ayuda, ignore este mensaje.`,
      },
      zh: {
        subject: `${org} 请求协助您管理住房账户`,
        text: `${org} 的 ${who} 请求在住房门户中代表您操作 ${days} 天。\n\n如果同意，请在对方办公桌前告诉他们此验证码：${code}（${minutes} 分钟内有效）。\n您也可以在设置中答复：${settings}\n\n他们为您所做的每项操作都会列在您的设置中，您可以随时停止他们的访问。如果您没有请求帮助，请忽略此消息。`,
      },
      bn: {
        subject: `${org} আপনার হাউজিং অ্যাকাউন্টে সাহায্য করতে চায়`,
        text: `${org}-এর ${who} হাউজিং পোর্টালে ${days} দিনের জন্য আপনার পক্ষে কাজ করার অনুমতি চাইছেন।\n\nতাদের ডেস্কে রাজি হতে, তাদের এই কোডটি বলুন: ${code} (এটি ${minutes} মিনিট কাজ করবে)।\nআপনি আপনার সেটিংসেও উত্তর দিতে পারেন: ${settings}\n\nতারা আপনার জন্য যা করে তার সবকিছু আপনার সেটিংসে দেখানো হয়, এবং আপনি যেকোনো সময় তাদের অ্যাক্সেস বন্ধ করতে পারেন। আপনি সাহায্য না চাইলে এই বার্তাটি উপেক্ষা করুন।`,
      },
    };
    return { ...texts[language], sms: `${SMS_BRAND[language]}: ${SMS_LINE[language](code, minutes)}` };
  },
});

/** Read out at the ambassador's desk: the code, and nothing of who asks (the email names them). */
const SMS_LINE: Record<MessageLanguage, (code: string, minutes: string) => string> = {
  en: (code, minutes) => `a housing ambassador asks to act for you. Code ${code} (${minutes} min). Ignore if you did not ask.`,
  es: (code, minutes) => `un embajador de vivienda pide actuar en su nombre. Código ${code} (${minutes} min). Ignórelo si no lo pidió.`,
  zh: (code, minutes) => `住房大使请求代表您操作。验证码 ${code}（${minutes} 分钟）。如非本人请求请忽略。`,
  bn: (code, minutes) => `একজন হাউজিং অ্যাম্বাসেডর আপনার পক্ষে কাজ করতে চান। কোড ${code} (${minutes} মিনিট)। না চাইলে উপেক্ষা করুন।`,
};
