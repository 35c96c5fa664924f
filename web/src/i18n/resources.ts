import type { Language } from '../lib/domain-core';
import type enCommon from './locales/en/common.json';
import type enAuth from './locales/en/auth.json';
import type enProfileSetting from './locales/en/profileSetting.json';
import type enDashboard from './locales/en/dashboard.json';
import type enLeaseupApplications from './locales/en/leaseupApplications.json';
import type enOpportunities from './locales/en/opportunities.json';
import type enSideMenu from './locales/en/sideMenu.json';
import type enRecertification from './locales/en/recertification.json';
import type enTraining from './locales/en/training.json';
import type enProfile from './locales/en/profile.json';
import type enMydocument from './locales/en/mydocument.json';
import type enLookups from './locales/en/lookups.json';
import type enAmbassador from './locales/en/ambassador.json';
import type enLottery from './locales/en/lottery.json';
import type enManagerInbox from './locales/en/managerInbox.json';
import type enSupport from './locales/en/support.json';
import type enCaseProgress from './locales/en/caseProgress.json';
import type enCaseFile from './locales/en/caseFile.json';
import type enOpportunityEditor from './locales/en/opportunityEditor.json';
import type enOperator from './locales/en/operator.json';
// The Translate / Show original buttons.
import type enTranslator from './locales/en/translator.json';
import type enAlerts from './locales/en/alerts.json';

/**
 * Namespaces of spec section 9 that the app uses so far, plus `common` (layout, login, errors) and
 * `auth`. Each language's namespace is its own chunk, loaded when a page first uses it,
 * so a page loads only its own texts, in the reader's language only.
 */
export const NAMESPACES = ['common', 'auth', 'profileSetting', 'dashboard', 'leaseupApplications', 'opportunities', 'sideMenu', 'recertification', 'training', 'profile', 'mydocument', 'lookups', 'ambassador', 'lottery', 'managerInbox', 'support', 'caseProgress', 'caseFile', 'opportunityEditor', 'operator', 'translator', 'alerts'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Loaded with the app: the layout's texts. Pages load theirs on first use (react-i18next suspends). */
export const STARTUP_NAMESPACES: readonly Namespace[] = ['common', 'sideMenu'];

/** English is the source language and the shape every other language must match (typed keys). */
export interface EnResources {
  common: typeof enCommon;
  auth: typeof enAuth;
  profileSetting: typeof enProfileSetting;
  dashboard: typeof enDashboard;
  leaseupApplications: typeof enLeaseupApplications;
  opportunities: typeof enOpportunities;
  sideMenu: typeof enSideMenu;
  recertification: typeof enRecertification;
  training: typeof enTraining;
  profile: typeof enProfile;
  mydocument: typeof enMydocument;
  lookups: typeof enLookups;
  ambassador: typeof enAmbassador;
  lottery: typeof enLottery;
  managerInbox: typeof enManagerInbox;
  support: typeof enSupport;
  caseProgress: typeof enCaseProgress;
  caseFile: typeof enCaseFile;
  opportunityEditor: typeof enOpportunityEditor;
  operator: typeof enOperator;
  translator: typeof enTranslator;
  alerts: typeof enAlerts;
}

// The dev server and the tests load each file through Vite; the production build emits each one as
// `assets/<namespace>-<language>-<hash>.js` (web/build/locale-chunks.ts), so the first script builds
// the name instead of carrying a map of every hashed file name (initial JS).
const DEV_LOADERS = import.meta.env.DEV ? import.meta.glob<{ default: object }>('./locales/*/*.json') : {};

function importTexts(language: Language, namespace: Namespace): Promise<{ default: object }> {
  if (import.meta.env.DEV) {
    const load = DEV_LOADERS[`./locales/${language}/${namespace}.json`];
    return load ? load() : Promise.reject(new Error(`no texts for ${language}/${namespace}`));
  }
  // Relative to this script, which the build places in the same assets folder.
  return import(/* @vite-ignore */ `./${namespace}-${language}-${__LOCALE_HASH__}.js`) as Promise<{ default: object }>;
}

/**
 * One namespace in one language. Spec section 8: a language that fails to load falls back to en.
 */
export async function loadNamespace(language: Language, namespace: Namespace): Promise<object> {
  try {
    return (await importTexts(language, namespace)).default;
  } catch (error) {
    if (language === 'en') throw error;
    return loadNamespace('en', namespace);
  }
}
