import { defineTemplate, str, smsNotice, type MessageLanguage } from './types';

/**
 * The household is told each time an organisation's access to its account starts or stops, and
 * before it ends on its own (the grant's durable timer).
 */
export const accessChangedTemplate = defineTemplate<{ change: 'granted' | 'revoked' | 'ending' | 'expired'; organizationName: string; expiresOn: string }>({
  name: 'access-changed',
  render(language, p, ctx) {
    const { baseUrl } = ctx;
    const org = str(p.organizationName);
    const until = str(p.expiresOn);
    const settings = `${baseUrl}/profile-setting`;
    const sms = smsNotice(language, ctx, '/profile-setting', SMS_LINE[language]);
    if (p.change === 'ending' || p.change === 'expired') return { ...endingTexts(p.change, org, until, settings)[language], sms };
    const granted = p.change === 'granted';
    const texts = {
      en: granted
        ? { subject: `${org} can now act for you`, text: `${org} can act for you in the Housing Portal until ${until}.\n\nEverything they do is listed in your settings, where you can stop their access at any time: ${settings}` }
        : { subject: `${org} can no longer act for you`, text: `${org} can no longer act for you in the Housing Portal.\n\nWhat they did while they had access stays listed in your settings: ${settings}` },
      es: granted
        ? { subject: `${org} ahora puede actuar en su nombre`, text: `${org} puede actuar en su nombre en el Portal de Vivienda hasta el ${until}.\n\nTodo lo que hagan aparece en su configuración, donde puede quitarles el acceso en cualquier momento: ${settings}` }
        : { subject: `${org} ya no puede actuar en su nombre`, text: `${org} ya no puede actuar en su nombre en el Portal de Vivienda.\n\nLo que hicieron mientras tenían acceso sigue en su configuración: ${settings}` },
      zh: granted
        ? { subject: `${org} 现在可以代表您操作`, text: `${org} 可以在住房门户中代表您操作，直至 ${until}。\n\n他们的每项操作都会列在您的设置中，您可以随时在那里停止他们的访问：${settings}` }
        : { subject: `${org} 不能再代表您操作`, text: `${org} 已不能在住房门户中代表您操作。\n\n他们在有权限期间的操作仍列在您的设置中：${settings}` },
      bn: granted
        ? { subject: `${org} এখন আপনার পক্ষে কাজ করতে পারে`, text: `${org} ${until} পর্যন্ত হাউজিং পোর্টালে আপনার পক্ষে কাজ করতে পারে।\n\nতারা যা করে তার সবকিছু আপনার সেটিংসে দেখানো হয়, যেখানে আপনি যেকোনো সময় তাদের অ্যাক্সেস বন্ধ করতে পারেন: ${settings}` }
        : { subject: `${org} আর আপনার পক্ষে কাজ করতে পারবে না`, text: `${org} আর হাউজিং পোর্টালে আপনার পক্ষে কাজ করতে পারবে না।\n\nঅ্যাক্সেস থাকার সময় তারা যা করেছে তা আপনার সেটিংসে দেখানো থাকবে: ${settings}` },
    };
    return { ...texts[language], sms };
  },
});

const SMS_LINE: Record<MessageLanguage, string> = {
  en: 'access to your account changed. See your settings:',
  es: 'cambió el acceso a su cuenta. Vea su configuración:',
  zh: '您账户的代办权限有变更。请查看设置：',
  bn: 'আপনার অ্যাকাউন্টের অ্যাক্সেস বদলেছে। সেটিংস দেখুন:',
};


/** Before the end (the household may extend it in its settings), and at the end. */
function endingTexts(change: 'ending' | 'expired', org: string, until: string, settings: string) {
  const ending = change === 'ending';
  return {
    en: ending
      ? { subject: `${org} can act for you until ${until}`, text: `${org} can act for you in the Housing Portal until ${until}. After that date their access ends on its own.\n\nTo keep their help, extend it in your settings: ${settings}` }
      : { subject: `${org} can no longer act for you`, text: `The access you gave ${org} ended on ${until}.\n\nWhat they did while they had access stays listed in your settings: ${settings}` },
    es: ending
      ? { subject: `${org} puede actuar en su nombre hasta el ${until}`, text: `${org} puede actuar en su nombre en el Portal de Vivienda hasta el ${until}. Después de esa fecha su acceso termina solo.\n\nPara seguir recibiendo su ayuda, extienda el acceso en su configuración: ${settings}` }
      : { subject: `${org} ya no puede actuar en su nombre`, text: `El acceso que dio a ${org} terminó el ${until}.\n\nLo que hicieron mientras tenían acceso sigue en su configuración: ${settings}` },
    zh: ending
      ? { subject: `${org} 可代表您操作至 ${until}`, text: `${org} 可以在住房门户中代表您操作，直至 ${until}。该日期之后，他们的访问权限将自动结束。\n\n如需继续获得他们的帮助，请在设置中延长访问权限：${settings}` }
      : { subject: `${org} 不能再代表您操作`, text: `您授予 ${org} 的访问权限已于 ${until} 结束。\n\n他们在有权限期间的操作仍列在您的设置中：${settings}` },
    bn: ending
      ? { subject: `${org} ${until} পর্যন্ত আপনার পক্ষে কাজ করতে পারে`, text: `${org} ${until} পর্যন্ত হাউজিং পোর্টালে আপনার পক্ষে কাজ করতে পারে। সেই তারিখের পরে তাদের অ্যাক্সেস নিজে থেকেই শেষ হয়ে যাবে।\n\nতাদের সাহায্য চালিয়ে যেতে আপনার সেটিংসে অ্যাক্সেসের মেয়াদ বাড়ান: ${settings}` }
      : { subject: `${org} আর আপনার পক্ষে কাজ করতে পারবে না`, text: `আপনি ${org}-কে যে অ্যাক্সেস দিয়েছিলেন তা ${until} তারিখে শেষ হয়েছে।\n\nঅ্যাক্সেস থাকার সময় তারা যা করেছে তা আপনার সেটিংসে দেখানো থাকবে: ${settings}` },
  };
}
