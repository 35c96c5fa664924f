import { defineTemplate, portalLink, str, smsNotice, type MessageLanguage } from './types';

/** The password-reset link (spec section 2: /resetpassword; a used or expired link goes to /link-expired). */
export const resetPasswordTemplate = defineTemplate<{ firstName: string; path: string }>({
  name: 'reset-password',
  secretParams: ['path'],
  render(language, p, context) {
    const link = portalLink(context, str(p.path));
    const name = str(p.firstName);
    const texts = {
      en: {
        subject: 'Reset your Housing Portal password',
        text: `Hello ${name},\n\nWe received a request to reset your password. Open this link to choose a new one:\n\n${link}\n\nThe link works once and expires in 1 hour. If you did not ask for it, ignore this message; your password stays the same.`,
      },
      es: {
        subject: 'Restablezca su contraseña del Portal de Vivienda',
        text: `Hola ${name}:\n\nRecibimos una solicitud para restablecer su contraseña. Abra este enlace para elegir una nueva:\n\n${link}\n\nEl enlace funciona una sola vez y vence en 1 hora. Si no lo solicitó, ignore este mensaje; su contraseña no cambia.`,
      },
      zh: {
        subject: '重置您的住房门户密码',
        text: `${name}，您好：\n\n我们收到了重置您密码的请求。请打开以下链接设置新密码：\n\n${link}\n\n该链接只能使用一次，1 小时后失效。如果这不是您本人的请求，请忽略此消息；您的密码不会改变。`,
      },
      bn: {
        subject: 'আপনার হাউজিং পোর্টালের পাসওয়ার্ড রিসেট করুন',
        text: `নমস্কার ${name},\n\nআমরা আপনার পাসওয়ার্ড রিসেট করার একটি অনুরোধ পেয়েছি। নতুন পাসওয়ার্ড বেছে নিতে এই লিংকটি খুলুন:\n\n${link}\n\nলিংকটি একবারই কাজ করবে এবং ১ ঘণ্টা পরে মেয়াদোত্তীর্ণ হবে। আপনি যদি এটি না চেয়ে থাকেন, এই বার্তাটি উপেক্ষা করুন; আপনার পাসওয়ার্ড একই থাকবে।`,
      },
    };
    return { ...texts[language], sms: smsNotice(language, context, '/forget-password', SMS_LINE[language]) };
  },
});

const SMS_LINE: Record<MessageLanguage, string> = {
  en: 'we sent a password reset link to your email. Not you? Ask again:',
  es: 'enviamos un enlace para cambiar su contraseña a su correo. ¿No fue usted? Pida otro:',
  zh: '密码重置链接已发送到您的电子邮件。如非本人，请重新申请：',
  bn: 'রিসেট লিংক ইমেলে পাঠানো হয়েছে। আপনি না চাইলে দেখুন:',
};
