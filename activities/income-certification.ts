import type { LetterContent } from '../infra/letters/pdf';
import { letterText, type LetterText } from '../infra/letters/text';
import type { CertificationFacts } from '../infra/db/repositories/certification-facts';

// What an income certification (TIC) and a lease letter say, in the household's language, built
// from the facts read when the letter is made (infra/db/repositories/certification-facts.ts).

/** The letter's setting: its reference, the management, the unit and rent, and who signs. */
export interface LetterSetting {
  reference: string;
  organization: string;
  effectiveDate: string;
  unit: { number: string; address: string; bedrooms: string } | null;
  monthlyRent: number | null;
  signers: { name: string; isHead: boolean }[];
}

function householdSections(w: LetterText, facts: CertificationFacts) {
  const members = facts.members.map((m) => {
    const flags = [m.student ? w.t('student') : '', m.disability ? w.t('disability') : ''].filter(Boolean);
    return w.t('memberLine', { name: m.name, relationship: w.label('relationship', m.relationship), age: m.age, flags: flags.length ? ` (${flags.join(', ')})` : '' });
  });
  const incomes = facts.incomes.map((i) =>
    w.t('incomeLine', {
      name: i.memberName,
      type: w.label('incomeType', i.incomeType),
      source: i.sourceName ? `(${i.sourceName})` : '',
      amount: w.money(i.amount),
      frequency: w.label('payFrequency', i.frequency),
      annual: w.money(i.annual),
    }).replace(/ {2,}/g, ' '),
  );
  const assets = facts.assets.map((a) => w.t('assetLine', { name: a.memberName || '-', kind: w.label('assetKind', a.kind), value: w.money(a.value), income: w.money(a.income) }));
  const band = facts.band ? `${facts.band.amiPercent}% AMI - ${w.band(facts.band.band)}` : w.t('amiUnknown');
  return [
    { heading: w.t('members'), lines: [...members, `${w.t('householdSize')}: ${facts.householdSize}`] },
    { heading: w.t('income'), lines: incomes.length ? incomes : [w.t('noIncome')] },
    { heading: w.t('assets'), lines: [...(assets.length ? assets : [w.t('noAssets')]), `${w.t('totalAssetIncome')}: ${w.money(facts.assetIncome)}`] },
    { lines: [`${w.t('totalAnnualIncome')}: ${w.money(facts.totalIncome)}`, `${w.t('amiPercent')}: ${band}`] },
  ];
}

function unitLines(w: LetterText, setting: LetterSetting) {
  const unit = setting.unit ? w.t('unitLine', { unit: setting.unit.number, address: setting.unit.address, bedrooms: setting.unit.bedrooms }) : w.t('notAssigned');
  return [`${w.t('unit')}: ${unit}`, `${w.t('monthlyRent')}: ${setting.monthlyRent === null ? w.t('rentUnknown') : w.money(setting.monthlyRent)}`];
}

function signatureSection(w: LetterText, setting: LetterSetting) {
  return setting.signers.map((s) => ({ name: w.t('signerLine', { name: s.name, head: s.isHead ? w.t('headMark') : '' }) }));
}

/** The Tenant Income Certification, in the household's language. */
export function ticContent(facts: CertificationFacts, setting: LetterSetting, title: 'ticTitle' | 'recertTicTitle' = 'ticTitle'): LetterContent {
  const w = letterText(facts.language);
  return {
    language: facts.language,
    title: w.t(title),
    subtitle: `${w.t('organization')}: ${setting.organization} · ${w.t('reference')}: ${setting.reference}`,
    sections: [
      { lines: [`${w.t('effectiveDate')}: ${setting.effectiveDate}`, ...unitLines(w, setting)] },
      ...householdSections(w, facts),
      { heading: w.t('certification'), lines: [w.t('certifyStatement'), w.t('eachAdultSigns')] },
    ],
    signatureHeading: w.t('signatures'),
    signers: signatureSection(w, setting),
  };
}

/** The lease letter, in the household's language. */
export function leaseContent(facts: CertificationFacts, setting: LetterSetting & { opportunity: string; tenure: 'rental' | 'ownership' }): LetterContent {
  const w = letterText(facts.language);
  const head = setting.signers.find((s) => s.isHead)?.name ?? '';
  return {
    language: facts.language,
    title: w.t('leaseTitle'),
    subtitle: `${w.t('organization')}: ${setting.organization} · ${w.t('reference')}: ${setting.reference}`,
    sections: [
      {
        heading: w.t('household'),
        lines: [
          `${w.t('headOfHousehold')}: ${head}`,
          `${w.t('opportunity')}: ${setting.opportunity}`,
          ...unitLines(w, setting),
          `${w.t('tenure')}: ${w.t(setting.tenure)}`,
          `${w.t('effectiveDate')}: ${setting.effectiveDate}`,
        ],
      },
      { heading: w.t('members'), lines: facts.members.map((m) => `${m.name}: ${w.label('relationship', m.relationship)}`) },
      { heading: w.t('income'), lines: [`${w.t('totalAnnualIncome')}: ${w.money(facts.totalIncome)}`] },
      { lines: [w.t('leaseStatement')] },
    ],
    signatureHeading: w.t('signatures'),
    signers: signatureSection(w, setting),
  };
}
