import type { Language } from '../../domain';
import enLookups from '../../web/src/i18n/locales/en/lookups.json';
import esLookups from '../../web/src/i18n/locales/es/lookups.json';
import zhLookups from '../../web/src/i18n/locales/zh/lookups.json';
import bnLookups from '../../web/src/i18n/locales/bn/lookups.json';
import enRecert from '../../web/src/i18n/locales/en/recertification.json';
import esRecert from '../../web/src/i18n/locales/es/recertification.json';
import zhRecert from '../../web/src/i18n/locales/zh/recertification.json';
import bnRecert from '../../web/src/i18n/locales/bn/recertification.json';

/**
 * Every sentence and heading of the letters (TIC, lease letter, signature stamp) in the four
 * languages, in this one place. Labels of lookups (relationships, income types, asset kinds, pay
 * frequencies) and income bands are the web app's own translations, read from its locale files so
 * a label is never translated twice. No language falls back to English: the test
 * `tests/activities/letter-text.test.ts` checks every language has every key.
 */
const en = {
  ticTitle: 'Tenant Income Certification',
  leaseTitle: 'Lease Letter',
  recertTicTitle: 'Tenant Income Certification (annual recertification)',
  reference: 'Reference',
  organization: 'Management',
  effectiveDate: 'Effective date',
  generatedOn: 'Prepared on',
  household: 'Household',
  headOfHousehold: 'Head of household',
  members: 'Household members',
  memberLine: '{name}: {relationship}, age {age}{flags}',
  student: 'student',
  disability: 'disability',
  householdSize: 'Household size',
  income: 'Income',
  incomeLine: '{name}: {type} {source}, {amount} {frequency} = {annual} a year',
  noIncome: 'No income declared.',
  assets: 'Assets',
  assetLine: '{name}: {kind}, value {value}, income {income} a year',
  noAssets: 'No assets declared.',
  totalAnnualIncome: 'Total annual household income',
  totalAssetIncome: 'Total income from assets',
  amiPercent: 'Percent of area median income (AMI)',
  amiUnknown: 'AMI not available for this household size',
  unit: 'Unit',
  unitLine: 'Unit {unit}, {address} ({bedrooms})',
  notAssigned: 'not assigned',
  monthlyRent: 'Monthly rent',
  rentUnknown: 'not recorded',
  opportunity: 'Opportunity',
  tenure: 'Tenure',
  rental: 'rental',
  ownership: 'ownership',
  certification: 'Certification',
  certifyStatement: 'I certify that the information on this form is true and complete to the best of my knowledge.',
  eachAdultSigns: 'The head of household and each adult member sign below.',
  leaseStatement: 'By signing, the household accepts the unit named above under the terms of the lease.',
  signatures: 'Signatures',
  signerLine: '{name}{head}',
  headMark: ' (head of household)',
  signedStamp: 'Signed by {name} on {time} from IP {ip}',
  ipUnknown: 'unknown',
} as const;

export type LetterKey = keyof typeof en;
type Text = Record<LetterKey, string>;

const es: Text = {
  ticTitle: 'Certificación de Ingresos del Inquilino',
  leaseTitle: 'Carta de Arrendamiento',
  recertTicTitle: 'Certificación de Ingresos del Inquilino (recertificación anual)',
  reference: 'Referencia',
  organization: 'Administración',
  effectiveDate: 'Fecha de vigencia',
  generatedOn: 'Preparada el',
  household: 'Hogar',
  headOfHousehold: 'Jefe del hogar',
  members: 'Miembros del hogar',
  memberLine: '{name}: {relationship}, {age} años{flags}',
  student: 'estudiante',
  disability: 'discapacidad',
  householdSize: 'Tamaño del hogar',
  income: 'Ingresos',
  incomeLine: '{name}: {type} {source}, {amount} {frequency} = {annual} al año',
  noIncome: 'No se declararon ingresos.',
  assets: 'Bienes',
  assetLine: '{name}: {kind}, valor {value}, ingresos {income} al año',
  noAssets: 'No se declararon bienes.',
  totalAnnualIncome: 'Ingreso anual total del hogar',
  totalAssetIncome: 'Ingresos totales de bienes',
  amiPercent: 'Porcentaje del ingreso medio del área (AMI)',
  amiUnknown: 'AMI no disponible para este tamaño de hogar',
  unit: 'Unidad',
  unitLine: 'Unidad {unit}, {address} ({bedrooms})',
  notAssigned: 'sin asignar',
  monthlyRent: 'Alquiler mensual',
  rentUnknown: 'no registrado',
  opportunity: 'Oportunidad',
  tenure: 'Tenencia',
  rental: 'alquiler',
  ownership: 'propiedad',
  certification: 'Certificación',
  certifyStatement: 'Certifico que la información de este formulario es verdadera y completa según mi leal saber y entender.',
  eachAdultSigns: 'El jefe del hogar y cada miembro adulto firman a continuación.',
  leaseStatement: 'Al firmar, el hogar acepta la unidad indicada arriba según los términos del contrato de arrendamiento.',
  signatures: 'Firmas',
  signerLine: '{name}{head}',
  headMark: ' (jefe del hogar)',
  signedStamp: 'Firmado por {name} el {time} desde la IP {ip}',
  ipUnknown: 'desconocida',
};

const zh: Text = {
  ticTitle: '租户收入证明',
  leaseTitle: '租约函',
  recertTicTitle: '租户收入证明（年度重新认证）',
  reference: '编号',
  organization: '管理方',
  effectiveDate: '生效日期',
  generatedOn: '编制日期',
  household: '家庭',
  headOfHousehold: '户主',
  members: '家庭成员',
  memberLine: '{name}：{relationship}，{age} 岁{flags}',
  student: '学生',
  disability: '残疾',
  householdSize: '家庭人数',
  income: '收入',
  incomeLine: '{name}：{type} {source}，{amount} {frequency} = 每年 {annual}',
  noIncome: '未申报收入。',
  assets: '资产',
  assetLine: '{name}：{kind}，价值 {value}，每年收入 {income}',
  noAssets: '未申报资产。',
  totalAnnualIncome: '家庭年度总收入',
  totalAssetIncome: '资产总收入',
  amiPercent: '占地区收入中位数 (AMI) 的百分比',
  amiUnknown: '该家庭人数没有 AMI 数据',
  unit: '单元',
  unitLine: '单元 {unit}，{address}（{bedrooms}）',
  notAssigned: '未分配',
  monthlyRent: '月租金',
  rentUnknown: '未记录',
  opportunity: '住房机会',
  tenure: '产权类型',
  rental: '租赁',
  ownership: '自有',
  certification: '声明',
  certifyStatement: '本人证明，据本人所知，本表格中的信息真实完整。',
  eachAdultSigns: '户主和每位成年成员在下方签名。',
  leaseStatement: '签名即表示本家庭按照租约条款接受上述单元。',
  signatures: '签名',
  signerLine: '{name}{head}',
  headMark: '（户主）',
  signedStamp: '{name} 于 {time} 从 IP {ip} 签名',
  ipUnknown: '未知',
};

const bn: Text = {
  ticTitle: 'ভাড়াটিয়ার আয়ের প্রত্যয়ন',
  leaseTitle: 'লিজ পত্র',
  recertTicTitle: 'ভাড়াটিয়ার আয়ের প্রত্যয়ন (বার্ষিক পুনঃপ্রত্যয়ন)',
  reference: 'রেফারেন্স',
  organization: 'ব্যবস্থাপনা',
  effectiveDate: 'কার্যকর তারিখ',
  generatedOn: 'প্রস্তুতের তারিখ',
  household: 'পরিবার',
  headOfHousehold: 'পরিবারপ্রধান',
  members: 'পরিবারের সদস্য',
  memberLine: '{name}: {relationship}, বয়স {age}{flags}',
  student: 'শিক্ষার্থী',
  disability: 'প্রতিবন্ধিতা',
  householdSize: 'পরিবারের আকার',
  income: 'আয়',
  incomeLine: '{name}: {type} {source}, {amount} {frequency} = বছরে {annual}',
  noIncome: 'কোনো আয় ঘোষণা করা হয়নি।',
  assets: 'সম্পদ',
  assetLine: '{name}: {kind}, মূল্য {value}, বছরে আয় {income}',
  noAssets: 'কোনো সম্পদ ঘোষণা করা হয়নি।',
  totalAnnualIncome: 'পরিবারের মোট বার্ষিক আয়',
  totalAssetIncome: 'সম্পদ থেকে মোট আয়',
  amiPercent: 'এলাকার মধ্যম আয়ের (AMI) শতাংশ',
  amiUnknown: 'এই পরিবারের আকারের জন্য AMI পাওয়া যায়নি',
  unit: 'ইউনিট',
  unitLine: 'ইউনিট {unit}, {address} ({bedrooms})',
  notAssigned: 'বরাদ্দ হয়নি',
  monthlyRent: 'মাসিক ভাড়া',
  rentUnknown: 'নথিভুক্ত নয়',
  opportunity: 'সুযোগ',
  tenure: 'মালিকানার ধরন',
  rental: 'ভাড়া',
  ownership: 'মালিকানা',
  certification: 'প্রত্যয়ন',
  certifyStatement: 'আমি প্রত্যয়ন করছি যে আমার জানামতে এই ফর্মের তথ্য সত্য ও সম্পূর্ণ।',
  eachAdultSigns: 'পরিবারপ্রধান ও প্রত্যেক প্রাপ্তবয়স্ক সদস্য নিচে স্বাক্ষর করবেন।',
  leaseStatement: 'স্বাক্ষর করে পরিবারটি লিজের শর্তে উপরে উল্লিখিত ইউনিট গ্রহণ করছে।',
  signatures: 'স্বাক্ষর',
  signerLine: '{name}{head}',
  headMark: ' (পরিবারপ্রধান)',
  signedStamp: '{name} {time} তারিখে IP {ip} থেকে স্বাক্ষর করেছেন',
  ipUnknown: 'অজানা',
};

export const LETTER_TEXT: Record<Language, Text> = { en, es, zh, bn };

type Lookups = typeof enLookups;
const LOOKUPS: Record<Language, Lookups> = { en: enLookups, es: esLookups, zh: zhLookups, bn: bnLookups };
const BANDS: Record<Language, Record<string, string>> = { en: enRecert.band, es: esRecert.band, zh: zhRecert.band, bn: bnRecert.band };

export const LETTER_LANGUAGES = Object.keys(LETTER_TEXT) as Language[];
export const isLetterLanguage = (value: unknown): value is Language => typeof value === 'string' && value in LETTER_TEXT;

/** The letters' words in one language: sentences with `{placeholders}`, lookup labels, money and dates. */
export function letterText(language: Language) {
  const text = LETTER_TEXT[language];
  const lookups = LOOKUPS[language] as unknown as Record<string, Record<string, string>>;
  return {
    language,
    t(key: LetterKey, params: Record<string, string | number> = {}): string {
      return text[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
    },
    /** A lookup's label as the web app shows it; the code itself if the web app has none. */
    label(list: 'relationship' | 'incomeType' | 'assetKind' | 'payFrequency', code: string): string {
      return lookups[list]?.[code] ?? code;
    },
    band(band: string): string {
      return BANDS[language][band] ?? band;
    },
    /** US dollars in one format in every language, so the household and staff read the same figures. */
    money(amount: number): string {
      return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    },
  };
}
export type LetterText = ReturnType<typeof letterText>;
