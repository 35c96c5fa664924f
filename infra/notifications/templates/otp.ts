import { defineTemplate, str } from './types';

/** A one-time code (sign-in, registration, forgotten username, profile matching, signature change). */
export const otpTemplate = defineTemplate<{ code: string; minutes: number }>({
  name: 'otp',
  secretParams: ['code'],
  smsParams: ['code', 'minutes'],
  render(language, p) {
    const code = str(p.code);
    const minutes = str(p.minutes);
    const texts = {
      en: {
        subject: 'Your Housing Portal verification code',
        text: `Your verification code is ${code}.\n\nIt expires in ${minutes} minutes. If you did not ask for it, you can ignore this message; nobody can use your account without your password.`,
        sms: `Housing Portal code: ${code} (expires in ${minutes} min)`,
      },
      es: {
        subject: 'Su código de verificación del Portal de Vivienda',
        text: `Su código de verificación es ${code}.\n\nVence en ${minutes} minutos. Si no lo solicitó, puede ignorar este mensaje; nadie puede usar su cuenta sin su contraseña.`,
        sms: `Código del Portal de Vivienda: ${code} (vence en ${minutes} min)`,
      },
      zh: {
        subject: '您的住房门户验证码',
        text: `您的验证码是 ${code}。\n\n该验证码将在 ${minutes} 分钟后失效。如果这不是您本人的请求，请忽略此消息；没有您的密码，任何人都无法使用您的账户。`,
        sms: `住房门户验证码：${code}（${minutes} 分钟内有效）`,
      },
      bn: {
        subject: 'আপনার হাউজিং পোর্টাল যাচাইকরণ কোড',
        text: `আপনার যাচাইকরণ কোড হলো ${code}।\n\nএটি ${minutes} মিনিটের মধ্যে মেয়াদোত্তীর্ণ হবে। আপনি যদি এটি না চেয়ে থাকেন, তাহলে এই বার্তাটি উপেক্ষা করুন; আপনার পাসওয়ার্ড ছাড়া কেউ আপনার অ্যাকাউন্ট ব্যবহার করতে পারবে না।`,
        sms: `হাউজিং পোর্টাল কোড: ${code} (${minutes} মিনিটে মেয়াদ শেষ)`,
      },
    };
    return texts[language];
  },
});
