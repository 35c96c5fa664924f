import { createHash } from 'node:crypto';
import type { Language, OpportunityDetail } from '../../domain';
import { renderLetterPdf } from '../../infra/letters/pdf';
import enEditor from '../../web/src/i18n/locales/en/opportunityEditor.json';
import esEditor from '../../web/src/i18n/locales/es/opportunityEditor.json';
import zhEditor from '../../web/src/i18n/locales/zh/opportunityEditor.json';
import bnEditor from '../../web/src/i18n/locales/bn/opportunityEditor.json';

/**
 * The paper application of an opportunity (spec section 2: paper application download, apply online
 * or by mail), generated in the reader's language from the opportunity as published: what it
 * offers, where to mail the form, and blanks for the household, its income and its signatures. It is
 * drawn by the letters' renderer, so every language's script is an embedded Noto font.
 */
const en = {
  title: 'Paper application',
  about: 'About this opportunity',
  address: 'Address: {value}',
  type: 'Type of housing: {value}',
  rental: 'Rental',
  ownership: 'Ownership',
  deadline: 'Application deadline: {value}',
  unitLine: 'Unit {unit}: {bedrooms}, {rent} a month, {ami} AMI',
  incomeLine: 'Household of {size}: yearly income from {min} to {max}',
  howToApply: 'How to apply',
  byMail: 'Fill in this form in ink, sign it and mail it to:',
  noMail: 'This opportunity does not take applications by mail. Please apply online at the housing portal.',
  onlineToo: 'You can also apply online at the housing portal.',
  oneApplication: 'Only one application per household is allowed for each lottery. Sending both an online and a paper application may disqualify you.',
  head: 'Head of household',
  blanks: ['Full name: ______________________________', 'Date of birth: ______________', 'Phone: ______________________', 'Email: ______________________________', 'Home address: __________________________________________', 'Mailing address: _______________________________________'],
  members: 'Other household members',
  memberBlank: '{n}. Name: ____________________  Relationship: ____________  Date of birth: __________',
  income: 'Household income',
  incomeBlanks: ['Household size (number of people): ______', 'Total yearly income of all members (US dollars): ______________'],
  certification: 'Certification',
  certify: 'I certify that the information on this form is true and complete to the best of my knowledge.',
  signatures: 'Signatures',
  headSigner: 'Head of household',
  adultSigner: 'Other adult household member',
};
type PaperText = typeof en;

const es: PaperText = {
  title: 'Solicitud en papel',
  about: 'Acerca de esta oportunidad',
  address: 'Dirección: {value}',
  type: 'Tipo de vivienda: {value}',
  rental: 'Alquiler',
  ownership: 'Propiedad',
  deadline: 'Fecha límite de solicitud: {value}',
  unitLine: 'Unidad {unit}: {bedrooms}, {rent} al mes, {ami} del AMI',
  incomeLine: 'Hogar de {size}: ingreso anual de {min} a {max}',
  howToApply: 'Cómo presentar la solicitud',
  byMail: 'Complete este formulario con tinta, fírmelo y envíelo por correo a:',
  noMail: 'Esta oportunidad no acepta solicitudes por correo. Presente su solicitud en línea en el portal de vivienda.',
  onlineToo: 'También puede presentar su solicitud en línea en el portal de vivienda.',
  oneApplication: 'Solo se permite una solicitud por hogar para cada lotería. Enviar una solicitud en línea y otra en papel puede descalificarlo.',
  head: 'Jefe del hogar',
  blanks: ['Nombre completo: ______________________________', 'Fecha de nacimiento: ______________', 'Teléfono: ______________________', 'Correo electrónico: ______________________________', 'Dirección: __________________________________________', 'Dirección postal: _______________________________________'],
  members: 'Otros miembros del hogar',
  memberBlank: '{n}. Nombre: ____________________  Parentesco: ____________  Fecha de nacimiento: __________',
  income: 'Ingresos del hogar',
  incomeBlanks: ['Tamaño del hogar (número de personas): ______', 'Ingreso anual total de todos los miembros (dólares): ______________'],
  certification: 'Certificación',
  certify: 'Certifico que la información de este formulario es verdadera y completa según mi leal saber y entender.',
  signatures: 'Firmas',
  headSigner: 'Jefe del hogar',
  adultSigner: 'Otro miembro adulto del hogar',
};

const zh: PaperText = {
  title: '纸质申请表',
  about: '关于此住房机会',
  address: '地址：{value}',
  type: '住房类型：{value}',
  rental: '租赁',
  ownership: '产权',
  deadline: '申请截止日期：{value}',
  unitLine: '单元 {unit}：{bedrooms}，每月 {rent}，AMI {ami}',
  incomeLine: '{size} 人家庭：年收入 {min} 至 {max}',
  howToApply: '如何申请',
  byMail: '请用墨水笔填写本表，签名后邮寄至：',
  noMail: '此住房机会不接受邮寄申请。请在住房门户网站上在线申请。',
  onlineToo: '您也可以在住房门户网站上在线申请。',
  oneApplication: '每个家庭每次抽签只能提交一份申请。同时提交在线申请和纸质申请可能会被取消资格。',
  head: '户主',
  blanks: ['全名：______________________________', '出生日期：______________', '电话：______________________', '电子邮件：______________________________', '住址：__________________________________________', '邮寄地址：_______________________________________'],
  members: '其他家庭成员',
  memberBlank: '{n}. 姓名：____________________  关系：____________  出生日期：__________',
  income: '家庭收入',
  incomeBlanks: ['家庭人数：______', '所有成员的年收入总额（美元）：______________'],
  certification: '声明',
  certify: '我声明，据我所知，本表所填信息真实完整。',
  signatures: '签名',
  headSigner: '户主',
  adultSigner: '其他成年家庭成员',
};

const bn: PaperText = {
  title: 'কাগজের আবেদন',
  about: 'এই সুযোগ সম্পর্কে',
  address: 'ঠিকানা: {value}',
  type: 'আবাসনের ধরন: {value}',
  rental: 'ভাড়া',
  ownership: 'মালিকানা',
  deadline: 'আবেদনের শেষ তারিখ: {value}',
  unitLine: 'ইউনিট {unit}: {bedrooms}, মাসে {rent}, AMI {ami}',
  incomeLine: '{size} জনের পরিবার: বার্ষিক আয় {min} থেকে {max}',
  howToApply: 'কীভাবে আবেদন করবেন',
  byMail: 'এই ফর্মটি কালি দিয়ে পূরণ করুন, স্বাক্ষর করুন এবং এই ঠিকানায় ডাকযোগে পাঠান:',
  noMail: 'এই সুযোগে ডাকযোগে আবেদন গ্রহণ করা হয় না। অনুগ্রহ করে হাউজিং পোর্টালে অনলাইনে আবেদন করুন।',
  onlineToo: 'আপনি হাউজিং পোর্টালে অনলাইনেও আবেদন করতে পারেন।',
  oneApplication: 'প্রতিটি লটারিতে প্রতি পরিবার কেবল একটি আবেদন করতে পারে। অনলাইন ও কাগজের দুটি আবেদনই পাঠালে আপনি অযোগ্য হতে পারেন।',
  head: 'পরিবারের প্রধান',
  blanks: ['পুরো নাম: ______________________________', 'জন্ম তারিখ: ______________', 'ফোন: ______________________', 'ইমেল: ______________________________', 'বাড়ির ঠিকানা: __________________________________________', 'ডাক ঠিকানা: _______________________________________'],
  members: 'পরিবারের অন্য সদস্যরা',
  memberBlank: '{n}. নাম: ____________________  সম্পর্ক: ____________  জন্ম তারিখ: __________',
  income: 'পরিবারের আয়',
  incomeBlanks: ['পরিবারের আকার (জন): ______', 'সব সদস্যের মোট বার্ষিক আয় (মার্কিন ডলার): ______________'],
  certification: 'প্রত্যয়ন',
  certify: 'আমি প্রত্যয়ন করছি যে আমার জানামতে এই ফর্মের তথ্য সত্য ও সম্পূর্ণ।',
  signatures: 'স্বাক্ষর',
  headSigner: 'পরিবারের প্রধান',
  adultSigner: 'পরিবারের অন্য প্রাপ্তবয়স্ক সদস্য',
};

export const PAPER_APPLICATION_TEXT: Record<Language, PaperText> = { en, es, zh, bn };
const LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-US', zh: 'zh-CN', bn: 'bn-BD' };
/** Lines left for other household members to fill in. */
const MEMBER_BLANKS = 5;

/** The editor's layouts ('1 bedroom') as the web app translates them; any other text as entered. */
const BEDROOMS: Record<Language, Record<string, string>> = { en: enEditor.bedrooms, es: esEditor.bedrooms, zh: zhEditor.bedrooms, bn: bnEditor.bedrooms };

const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));

/**
 * Rendering subsets CJK and Bengali fonts (seconds of CPU): each opportunity's form is made once per
 * language and content, shared by concurrent requests, and the most recent few are kept.
 */
const CACHE_SIZE = 32;
const cache = new Map<string, Promise<Buffer>>();

export function paperApplication(opportunity: OpportunityDetail, language: Language): Promise<Buffer> {
  const { daysRemaining: _days, isFavorite: _favorite, lotteryDrawn: _drawn, ...content } = opportunity;
  const key = `${language}:${createHash('sha256').update(JSON.stringify(content)).digest('hex')}`;
  let pdf = cache.get(key);
  if (pdf) {
    cache.delete(key);
    cache.set(key, pdf);
    return pdf;
  }
  pdf = renderPaperApplication(opportunity, language);
  cache.set(key, pdf);
  pdf.catch(() => cache.delete(key));
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return pdf;
}

export function renderPaperApplication(opportunity: OpportunityDetail, language: Language): Promise<Buffer> {
  const t = PAPER_APPLICATION_TEXT[language];
  const locale = LOCALES[language];
  const money = (n: number) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(n);
  const percent = (n: number) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(n / 100);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${opportunity.lotteryEndDate.slice(0, 10)}T00:00:00Z`));
  const mailing = (opportunity.mailingAddress ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  return renderLetterPdf({
    language,
    title: `${t.title}: ${opportunity.name}`,
    subtitle: opportunity.building ? `${opportunity.building}, ${opportunity.address}` : opportunity.address,
    sections: [
      {
        heading: t.about,
        lines: [
          fill(t.address, { value: opportunity.address }),
          fill(t.type, { value: t[opportunity.kind] }),
          fill(t.deadline, { value: date }),
          ...opportunity.units.map((u) => fill(t.unitLine, { unit: u.unitNumber, bedrooms: BEDROOMS[language][u.bedroomType] ?? u.bedroomType, rent: money(u.monthlyRent), ami: percent(u.amiPercent) })),
          ...opportunity.incomeRanges.map((r) => fill(t.incomeLine, { size: r.householdSize, min: money(r.min), max: money(r.max) })),
        ],
      },
      { heading: t.howToApply, lines: [...(mailing.length ? [t.byMail, ...mailing.map((l) => `    ${l}`), t.onlineToo] : [t.noMail]), t.oneApplication] },
      { heading: t.head, lines: t.blanks },
      { heading: t.members, lines: Array.from({ length: MEMBER_BLANKS }, (_, i) => fill(t.memberBlank, { n: i + 1 })) },
      { heading: t.income, lines: t.incomeBlanks },
      { heading: t.certification, lines: [t.certify] },
    ],
    signatureHeading: t.signatures,
    signers: [{ name: t.headSigner }, { name: t.adultSigner }, { name: t.adultSigner }],
  });
}
