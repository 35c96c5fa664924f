import { defineTemplate, portalLink, str, smsNotice, type MessageLanguage } from './types';

/** A household that applied twice to one lottery is told which application was withdrawn, and why only one counts. */
export const lotteryDuplicateTemplate = defineTemplate<{ opportunityName: string; logNumber: string }>({
  name: 'lottery-duplicate-withdrawn',
  render(language, p, ctx) {
    const name = str(p.opportunityName);
    const log = str(p.logNumber);
    const link = portalLink(ctx, '/myApplications');
    const texts = {
      en: { subject: `Application ${log} was withdrawn`, text: `Your household applied more than once to ${name}. Only one application per household is allowed, so application ${log} was withdrawn; your other application stays in the lottery.\n\n${link}` },
      es: { subject: `Se retiró la solicitud ${log}`, text: `Su hogar presentó más de una solicitud para ${name}. Solo se permite una solicitud por hogar, por lo que se retiró la solicitud ${log}; su otra solicitud sigue en la lotería.\n\n${link}` },
      zh: { subject: `申请 ${log} 已被撤回`, text: `您的家庭为 ${name} 提交了不止一份申请。每个家庭只能提交一份申请，因此申请 ${log} 已被撤回；您的另一份申请仍在抽签中。\n\n${link}` },
      bn: { subject: `আবেদন ${log} প্রত্যাহার করা হয়েছে`, text: `আপনার পরিবার ${name}-এর জন্য একাধিক আবেদন করেছে। প্রতি পরিবার একটি আবেদনই করতে পারে, তাই আবেদন ${log} প্রত্যাহার করা হয়েছে; আপনার অন্য আবেদনটি লটারিতে থাকছে।\n\n${link}` },
    };
    return { ...texts[language], sms: smsNotice(language, ctx, '/myApplications', SMS_LINE[language]) };
  },
});

const SMS_LINE: Record<MessageLanguage, string> = {
  en: 'one of your applications was withdrawn as a duplicate. See:',
  es: 'una de sus solicitudes se retiró por duplicada. Vea:',
  zh: '您的一份申请因重复已被撤回。查看：',
  bn: 'আপনার একটি আবেদন দ্বৈত হিসেবে প্রত্যাহার করা হয়েছে। দেখুন:',
};
