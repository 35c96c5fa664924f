import { defineTemplate, portalLink, str, smsNotice, type MessageLanguage } from './types';

/** The email-verification link sent after registration (spec section 2: /verify-email). */
export const verifyEmailTemplate = defineTemplate<{ firstName: string; path: string }>({
  name: 'verify-email',
  secretParams: ['path'],
  render(language, p, context) {
    const link = portalLink(context, str(p.path));
    const name = str(p.firstName);
    const texts = {
      en: {
        subject: 'Please verify your email address',
        text: `Hello ${name},\n\nThank you for registering with the Housing Portal. Please open this link to verify your email address:\n\n${link}\n\nThe link works once and expires in 48 hours.`,
      },
      es: {
        subject: 'Verifique su dirección de correo electrónico',
        text: `Hola ${name}:\n\nGracias por registrarse en el Portal de Vivienda. Abra este enlace para verificar su correo electrónico:\n\n${link}\n\nEl enlace funciona una sola vez y vence en 48 horas.`,
      },
      zh: {
        subject: '请验证您的电子邮件地址',
        text: `${name}，您好：\n\n感谢您注册住房门户。请打开以下链接验证您的电子邮件地址：\n\n${link}\n\n该链接只能使用一次，48 小时后失效。`,
      },
      bn: {
        subject: 'অনুগ্রহ করে আপনার ইমেইল ঠিকানা যাচাই করুন',
        text: `নমস্কার ${name},\n\nহাউজিং পোর্টালে নিবন্ধন করার জন্য ধন্যবাদ। আপনার ইমেইল ঠিকানা যাচাই করতে এই লিংকটি খুলুন:\n\n${link}\n\nলিংকটি একবারই কাজ করবে এবং ৪৮ ঘণ্টা পরে মেয়াদোত্তীর্ণ হবে।`,
      },
    };
    return { ...texts[language], sms: smsNotice(language, context, '/login', SMS_LINE[language]) };
  },
});

const SMS_LINE: Record<MessageLanguage, string> = {
  en: 'please confirm your email with the link we sent there, then sign in:',
  es: 'confirme su correo con el enlace que le enviamos y luego entre:',
  zh: '请用我们发送的链接确认您的电子邮件，然后登录：',
  bn: 'আমাদের পাঠানো লিংকে আপনার ইমেল নিশ্চিত করে সাইন ইন করুন:',
};
