import { defineTemplate, str, smsNotice, type MessageLanguage } from './types';

/** Told to the account's owner when sign-ins keep failing (the owner is told of repeated failures). */
export const signInFailuresTemplate = defineTemplate<{ firstName: string; failures: number }>({
  name: 'sign-in-failures',
  render(language, p, context) {
    const name = str(p.firstName);
    const failures = str(p.failures);
    const link = `${context.baseUrl}/forget-password`;
    const texts = {
      en: {
        subject: 'Failed sign-in attempts on your Housing Portal account',
        text: `Hello ${name},\n\nSomeone tried to sign in to your account with a wrong password ${failures} times. Your devices that signed in before can still sign in.\n\nIf this was not you, change your password: ${link}`,
      },
      es: {
        subject: 'Intentos fallidos de inicio de sesión en su cuenta del Portal de Vivienda',
        text: `Hola ${name}:\n\nAlguien intentó iniciar sesión en su cuenta con una contraseña incorrecta ${failures} veces. Sus dispositivos que ya iniciaron sesión pueden seguir haciéndolo.\n\nSi no fue usted, cambie su contraseña: ${link}`,
      },
      zh: {
        subject: '您的住房门户账户有登录失败记录',
        text: `${name}，您好：\n\n有人使用错误的密码尝试登录您的账户 ${failures} 次。您以前登录过的设备仍可正常登录。\n\n如果这不是您本人，请更改密码：${link}`,
      },
      bn: {
        subject: 'আপনার হাউজিং পোর্টাল অ্যাকাউন্টে ব্যর্থ সাইন-ইন চেষ্টা',
        text: `নমস্কার ${name},\n\nকেউ ভুল পাসওয়ার্ড দিয়ে ${failures} বার আপনার অ্যাকাউন্টে সাইন ইন করার চেষ্টা করেছে। আগে সাইন ইন করা আপনার ডিভাইসগুলো এখনও সাইন ইন করতে পারবে।\n\nএটি আপনি না হলে পাসওয়ার্ড বদলান: ${link}`,
      },
    };
    return { ...texts[language], sms: smsNotice(language, context, '/forget-password', SMS_LINE[language]) };
  },
});

const SMS_LINE: Record<MessageLanguage, string> = {
  en: 'failed sign-ins on your account. Not you? Change your password:',
  es: 'intentos fallidos de entrar a su cuenta. ¿No fue usted? Cambie su contraseña:',
  zh: '您的账户有登录失败记录。如非本人，请更改密码：',
  bn: 'ব্যর্থ সাইন-ইন হয়েছে। আপনি না হলে পাসওয়ার্ড বদলান:',
};
