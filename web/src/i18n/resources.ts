import type { Language } from '../lib/domain';
import enCommon from './locales/en/common.json';
import enDashboard from './locales/en/dashboard.json';
import enLeaseup from './locales/en/leaseupApplications.json';
import enOpportunities from './locales/en/opportunities.json';
import enSideMenu from './locales/en/sideMenu.json';
import enAuth from './locales/en/auth.json';
import enProfileSetting from './locales/en/profileSetting.json';
import enRecertification from './locales/en/recertification.json';
import enTraining from './locales/en/training.json';
import enProfile from './locales/en/profile.json';
import enMydocument from './locales/en/mydocument.json';
import enLookups from './locales/en/lookups.json';
import enAmbassador from './locales/en/ambassador.json';
import enLottery from './locales/en/lottery.json';
import esCommon from './locales/es/common.json';
import esDashboard from './locales/es/dashboard.json';
import esLeaseup from './locales/es/leaseupApplications.json';
import esOpportunities from './locales/es/opportunities.json';
import esSideMenu from './locales/es/sideMenu.json';
import esAuth from './locales/es/auth.json';
import esProfileSetting from './locales/es/profileSetting.json';
import esRecertification from './locales/es/recertification.json';
import esTraining from './locales/es/training.json';
import esProfile from './locales/es/profile.json';
import esMydocument from './locales/es/mydocument.json';
import esLookups from './locales/es/lookups.json';
import esAmbassador from './locales/es/ambassador.json';
import esLottery from './locales/es/lottery.json';
import zhCommon from './locales/zh/common.json';
import zhDashboard from './locales/zh/dashboard.json';
import zhLeaseup from './locales/zh/leaseupApplications.json';
import zhOpportunities from './locales/zh/opportunities.json';
import zhSideMenu from './locales/zh/sideMenu.json';
import zhAuth from './locales/zh/auth.json';
import zhProfileSetting from './locales/zh/profileSetting.json';
import zhRecertification from './locales/zh/recertification.json';
import zhTraining from './locales/zh/training.json';
import zhProfile from './locales/zh/profile.json';
import zhMydocument from './locales/zh/mydocument.json';
import zhLookups from './locales/zh/lookups.json';
import zhAmbassador from './locales/zh/ambassador.json';
import zhLottery from './locales/zh/lottery.json';
import bnCommon from './locales/bn/common.json';
import bnDashboard from './locales/bn/dashboard.json';
import bnLeaseup from './locales/bn/leaseupApplications.json';
import bnOpportunities from './locales/bn/opportunities.json';
import bnSideMenu from './locales/bn/sideMenu.json';
import bnAuth from './locales/bn/auth.json';
import bnProfileSetting from './locales/bn/profileSetting.json';
import bnRecertification from './locales/bn/recertification.json';
import bnTraining from './locales/bn/training.json';
import bnProfile from './locales/bn/profile.json';
import bnMydocument from './locales/bn/mydocument.json';
import bnLookups from './locales/bn/lookups.json';
import bnAmbassador from './locales/bn/ambassador.json';
import bnLottery from './locales/bn/lottery.json';

/** Namespaces of spec section 9 that the app uses so far, plus `common` (layout, login, errors). */
export const NAMESPACES = ['common', 'auth', 'profileSetting', 'dashboard', 'leaseupApplications', 'opportunities', 'sideMenu', 'recertification', 'training', 'profile', 'mydocument', 'lookups', 'ambassador', 'lottery'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** English is the source language and the shape every other language must match. */
export const enResources = {
  common: enCommon,
  dashboard: enDashboard,
  leaseupApplications: enLeaseup,
  opportunities: enOpportunities,
  sideMenu: enSideMenu,
  auth: enAuth,
  profileSetting: enProfileSetting,
  recertification: enRecertification,
  training: enTraining,
  profile: enProfile,
  mydocument: enMydocument,
  lookups: enLookups,
  ambassador: enAmbassador,
  lottery: enLottery,
};

export const resources: Record<Language, Record<Namespace, object>> = {
  en: enResources,
  es: { common: esCommon, auth: esAuth, profileSetting: esProfileSetting, dashboard: esDashboard, leaseupApplications: esLeaseup, opportunities: esOpportunities, sideMenu: esSideMenu, recertification: esRecertification, training: esTraining, profile: esProfile, mydocument: esMydocument, lookups: esLookups, ambassador: esAmbassador, lottery: esLottery },
  zh: { common: zhCommon, auth: zhAuth, profileSetting: zhProfileSetting, dashboard: zhDashboard, leaseupApplications: zhLeaseup, opportunities: zhOpportunities, sideMenu: zhSideMenu, recertification: zhRecertification, training: zhTraining, profile: zhProfile, mydocument: zhMydocument, lookups: zhLookups, ambassador: zhAmbassador, lottery: zhLottery },
  bn: { common: bnCommon, auth: bnAuth, profileSetting: bnProfileSetting, dashboard: bnDashboard, leaseupApplications: bnLeaseup, opportunities: bnOpportunities, sideMenu: bnSideMenu, recertification: bnRecertification, training: bnTraining, profile: bnProfile, mydocument: bnMydocument, lookups: bnLookups, ambassador: bnAmbassador, lottery: bnLottery },
};
