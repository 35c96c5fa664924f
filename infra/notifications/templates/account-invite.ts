import { defineTemplate, str, smsNotice, type MessageLanguage } from './types';

/**
 * An account made for a person by a housing ambassador: confirm the email, then choose a
 * password. Both links work once; the password link lasts 72 hours.
 */
export const accountInviteTemplate = defineTemplate<{ firstName: string; organizationName: string; username: string; verifyPath: string; passwordPath: string }>({
  name: 'account-invite',
  secretParams: ['verifyPath', 'passwordPath'],
  render(language, p, ctx) {
    const { baseUrl } = ctx;
    const name = str(p.firstName);
    const org = str(p.organizationName);
    const username = str(p.username);
    const verify = `${baseUrl}${str(p.verifyPath)}`;
    const password = `${baseUrl}${str(p.passwordPath)}`;
    const texts = {
      en: {
        subject: 'Your Housing Portal account is ready',
        text: `Hello ${name},\n\n${org} made a Housing Portal account for you. Your username is ${username}.\n\n1. Confirm your email: ${verify}\n2. Choose your password (within 72 hours): ${password}\n\nThen log in. Nobody at ${org} can act for you unless you agree.`,
      },
      es: {
        subject: 'Su cuenta del Portal de Vivienda está lista',
        text: `Hola ${name}:\n\n${org} creó una cuenta del Portal de Vivienda para usted. Su nombre de usuario es ${username}.\n\n1. Confirme su correo electrónico: ${verify}\n2. Elija su contraseña (dentro de 72 horas): ${password}\n\nLuego inicie sesión. Nadie de ${org} puede actuar en su nombre sin su permiso.`,
      },
      zh: {
        subject: '您的住房门户账户已准备就绪',
        text: `${name}，您好：\n\n${org} 为您创建了住房门户账户。您的用户名是 ${username}。\n\n1. 确认您的电子邮件：${verify}\n2. 设置您的密码（72 小时内）：${password}\n\n然后登录。未经您同意，${org} 的任何人都不能代表您操作。`,
      },
      bn: {
        subject: 'আপনার হাউজিং পোর্টাল অ্যাকাউন্ট প্রস্তুত',
        text: `নমস্কার ${name},\n\n${org} আপনার জন্য একটি হাউজিং পোর্টাল অ্যাকাউন্ট তৈরি করেছে। আপনার ইউজারনেম ${username}।\n\n১. আপনার ইমেল নিশ্চিত করুন: ${verify}\n২. আপনার পাসওয়ার্ড বেছে নিন (৭২ ঘণ্টার মধ্যে): ${password}\n\nতারপর লগ ইন করুন। আপনার সম্মতি ছাড়া ${org}-এর কেউ আপনার পক্ষে কাজ করতে পারবে না।`,
      },
    };
    return { ...texts[language], sms: smsNotice(language, ctx, '/login', SMS_LINE[language]) };
  },
});

const SMS_LINE: Record<MessageLanguage, string> = {
  en: 'an account was made for you. Check your email to choose your password:',
  es: 'hay una cuenta nueva para usted. Revise su correo para elegir su contraseña:',
  zh: '已为您创建账户。请查看电子邮件设置密码：',
  bn: 'আপনার জন্য একটি অ্যাকাউন্ট তৈরি হয়েছে। পাসওয়ার্ড বেছে নিতে ইমেল দেখুন:',
};
