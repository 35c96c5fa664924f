import { defineTemplate, str } from './types';

/** The household is told each time an organisation's access to its account starts or stops (issue 14). */
export const accessChangedTemplate = defineTemplate<{ change: 'granted' | 'revoked'; organizationName: string; expiresOn: string }>({
  name: 'access-changed',
  render(language, p, { baseUrl }) {
    const org = str(p.organizationName);
    const until = str(p.expiresOn);
    const settings = `${baseUrl}/profile-setting`;
    const granted = p.change === 'granted';
    const texts = {
      en: granted
        ? { subject: `${org} can now act for you`, text: `${org} can act for you in the Housing Portal until ${until}.\n\nEverything they do is listed in your settings, where you can stop their access at any time: ${settings}`, sms: `Housing Portal: ${org} can act for you until ${until}. Stop it any time in your settings.` }
        : { subject: `${org} can no longer act for you`, text: `${org} can no longer act for you in the Housing Portal.\n\nWhat they did while they had access stays listed in your settings: ${settings}`, sms: `Housing Portal: ${org} can no longer act for you.` },
      es: granted
        ? { subject: `${org} ahora puede actuar en su nombre`, text: `${org} puede actuar en su nombre en el Portal de Vivienda hasta el ${until}.\n\nTodo lo que hagan aparece en su configuración, donde puede quitarles el acceso en cualquier momento: ${settings}`, sms: `Portal de Vivienda: ${org} puede actuar en su nombre hasta el ${until}. Puede quitarlo en su configuración.` }
        : { subject: `${org} ya no puede actuar en su nombre`, text: `${org} ya no puede actuar en su nombre en el Portal de Vivienda.\n\nLo que hicieron mientras tenían acceso sigue en su configuración: ${settings}`, sms: `Portal de Vivienda: ${org} ya no puede actuar en su nombre.` },
      zh: granted
        ? { subject: `${org} 现在可以代表您操作`, text: `${org} 可以在住房门户中代表您操作，直至 ${until}。\n\n他们的每项操作都会列在您的设置中，您可以随时在那里停止他们的访问：${settings}`, sms: `住房门户：${org} 可代表您操作至 ${until}。可随时在设置中停止。` }
        : { subject: `${org} 不能再代表您操作`, text: `${org} 已不能在住房门户中代表您操作。\n\n他们在有权限期间的操作仍列在您的设置中：${settings}`, sms: `住房门户：${org} 已不能代表您操作。` },
      bn: granted
        ? { subject: `${org} এখন আপনার পক্ষে কাজ করতে পারে`, text: `${org} ${until} পর্যন্ত হাউজিং পোর্টালে আপনার পক্ষে কাজ করতে পারে।\n\nতারা যা করে তার সবকিছু আপনার সেটিংসে দেখানো হয়, যেখানে আপনি যেকোনো সময় তাদের অ্যাক্সেস বন্ধ করতে পারেন: ${settings}`, sms: `হাউজিং পোর্টাল: ${org} ${until} পর্যন্ত আপনার পক্ষে কাজ করতে পারে। সেটিংসে যেকোনো সময় বন্ধ করুন।` }
        : { subject: `${org} আর আপনার পক্ষে কাজ করতে পারবে না`, text: `${org} আর হাউজিং পোর্টালে আপনার পক্ষে কাজ করতে পারবে না।\n\nঅ্যাক্সেস থাকার সময় তারা যা করেছে তা আপনার সেটিংসে দেখানো থাকবে: ${settings}`, sms: `হাউজিং পোর্টাল: ${org} আর আপনার পক্ষে কাজ করতে পারবে না।` },
    };
    return texts[language];
  },
});
