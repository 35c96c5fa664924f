import { defineTemplate, str, smsNotice, type MessageLanguage } from './types';

/** The username, sent to the email on file after the forgot-username code was confirmed. */
export const usernameReminderTemplate = defineTemplate<{ firstName: string; username: string }>({
  name: 'username-reminder',
  render(language, p, context) {
    const name = str(p.firstName);
    const username = str(p.username);
    const texts = {
      en: {
        subject: 'Your Housing Portal username',
        text: `Hello ${name},\n\nYour username is: ${username}\n\nYou can log in with this username or with your email address.`,
      },
      es: {
        subject: 'Su nombre de usuario del Portal de Vivienda',
        text: `Hola ${name}:\n\nSu nombre de usuario es: ${username}\n\nPuede iniciar sesión con este nombre de usuario o con su correo electrónico.`,
      },
      zh: {
        subject: '您的住房门户用户名',
        text: `${name}，您好：\n\n您的用户名是：${username}\n\n您可以使用此用户名或电子邮件地址登录。`,
      },
      bn: {
        subject: 'আপনার হাউজিং পোর্টাল ইউজারনেম',
        text: `নমস্কার ${name},\n\nআপনার ইউজারনেম হলো: ${username}\n\nআপনি এই ইউজারনেম বা আপনার ইমেইল ঠিকানা দিয়ে লগ ইন করতে পারবেন।`,
      },
    };
    return { ...texts[language], sms: smsNotice(language, context, '/login', SMS_LINE[language]) };
  },
});

const SMS_LINE: Record<MessageLanguage, string> = {
  en: 'we sent your username to your email. Sign in:',
  es: 'enviamos su nombre de usuario a su correo. Inicie sesión:',
  zh: '您的用户名已发送到您的电子邮件。登录：',
  bn: 'আপনার ইউজারনেম ইমেলে পাঠানো হয়েছে। সাইন ইন করুন:',
};
