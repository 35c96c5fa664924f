import { createBrowserRouter } from 'react-router-dom';
import { PublicLayout } from '../components/layouts/public-layout';
import { paths } from '../config/paths';
import { ADMIN_ROLES, AMBASSADOR_ROLES, APPLICATION_VIEWER_ROLES, DASHBOARD_ROLES, MANAGER_ROLES, ORGANIZATION_STAFF_ROLES, RESIDENT_ROLES, SETTINGS_ROLES, SUPPORT_STAFF_ROLES, SUPPORT_TICKET_ROLES } from '../config/roles';
import { SignedOutOnly } from '../features/auth/components/signed-out-only';
import { lazyRoute } from './lazy-route';
import { StartRedirect } from './start-redirect';

// Every page is its own chunk, loaded when first visited: the public pages pull in only what they
// show (initial JS of public pages).
// The signed-in layout (menu, idle timer, impersonation banner) is not needed by public pages.
const SignedInLayout = lazyRoute(() => import('../components/layouts/signed-in-layout'), 'SignedInLayout');
const LoginRoute = lazyRoute(() => import('../features/auth/routes/login'), 'LoginRoute');
const AmbassadorDashboardRoute = lazyRoute(() => import('../features/ambassador/routes/ambassador-dashboard'), 'AmbassadorDashboardRoute');
const AmbassadorOrganizationsRoute = lazyRoute(() => import('../features/ambassador/routes/ambassador-organizations'), 'AmbassadorOrganizationsRoute');
const AmbassadorUserDashboardRoute = lazyRoute(() => import('../features/ambassador/routes/ambassador-user-dashboard'), 'AmbassadorUserDashboardRoute');
const AmbassadorUsersRoute = lazyRoute(() => import('../features/ambassador/routes/ambassador-users'), 'AmbassadorUsersRoute');
const NoOrganizationRoute = lazyRoute(() => import('../features/ambassador/routes/no-organization'), 'NoOrganizationRoute');
const AdminOrganizationsRoute = lazyRoute(() => import('../features/admin/routes/admin-organizations'), 'AdminOrganizationsRoute');
const AdminFaqRoute = lazyRoute(() => import('../features/admin/routes/admin-faq'), 'AdminFaqRoute');
const AdminUsersRoute = lazyRoute(() => import('../features/admin/routes/admin-users'), 'AdminUsersRoute');
// The operator console.
const OperatorConsoleRoute = lazyRoute(() => import('../features/operator/routes/operator-console'), 'OperatorConsoleRoute');
const OperatorCaseRoute = lazyRoute(() => import('../features/operator/routes/operator-case'), 'OperatorCaseRoute');
const ManageLotteryRoute = lazyRoute(() => import('../features/lottery/routes/manage-lottery'), 'ManageLotteryRoute');
const ManageWaitlistRoute = lazyRoute(() => import('../features/waitlist/routes/manage-waitlist'), 'ManageWaitlistRoute');
const WaitlistCheckInRoute = lazyRoute(() => import('../features/waitlist/routes/check-in'), 'WaitlistCheckInRoute');
const PaperEntryRoute = lazyRoute(() => import('../features/paper/routes/paper-entry'), 'PaperEntryRoute');
const DuplicatesRoute = lazyRoute(() => import('../features/paper/routes/duplicates'), 'DuplicatesRoute');
const PrintQueueRoute = lazyRoute(() => import('../features/paper/routes/print-queue'), 'PrintQueueRoute');
const ClaimPaperRoute = lazyRoute(() => import('../features/paper/routes/claim'), 'ClaimPaperRoute');
const GetAlertsRoute = lazyRoute(() => import('../features/alerts/routes/get-alerts'), 'GetAlertsRoute');
const ConfirmAlertRoute = lazyRoute(() => import('../features/alerts/routes/alert-token-action'), 'ConfirmAlertRoute');
const UnsubscribeAlertRoute = lazyRoute(() => import('../features/alerts/routes/alert-token-action'), 'UnsubscribeAlertRoute');
const MyAlertsRoute = lazyRoute(() => import('../features/alerts/routes/my-alerts'), 'MyAlertsRoute');
const LotteryResultsRoute = lazyRoute(() => import('../features/lottery-results/routes/lottery-results'), 'LotteryResultsRoute');
const ChooseOtpMethodRoute = lazyRoute(() => import('../features/auth/routes/choose-otp-method'), 'ChooseOtpMethodRoute');
const ForgetPasswordRoute = lazyRoute(() => import('../features/auth/routes/forget-password'), 'ForgetPasswordRoute');
const ForgetUsernameOtpRoute = lazyRoute(() => import('../features/auth/routes/forget-username'), 'ForgetUsernameOtpRoute');
const ForgetUsernameRoute = lazyRoute(() => import('../features/auth/routes/forget-username'), 'ForgetUsernameRoute');
const LeaseUpProfileMatchingRoute = lazyRoute(() => import('../features/auth/routes/lease-up-matching'), 'LeaseUpProfileMatchingRoute');
const LinkProfileRoute = lazyRoute(() => import('../features/auth/routes/lease-up-matching'), 'LinkProfileRoute');
const LinkRoute = lazyRoute(() => import('../features/auth/routes/lease-up-matching'), 'LinkRoute');
const ProfileMatchingRoute = lazyRoute(() => import('../features/auth/routes/profile-matching'), 'ProfileMatchingRoute');
const RegisterRoute = lazyRoute(() => import('../features/auth/routes/register'), 'RegisterRoute');
const RequestImpersonateUserRoute = lazyRoute(() => import('../features/auth/routes/request-impersonate-user'), 'RequestImpersonateUserRoute');
const ResetPasswordRoute = lazyRoute(() => import('../features/auth/routes/reset-password'), 'ResetPasswordRoute');
const LinkExpiredRoute = lazyRoute(() => import('../features/auth/routes/simple-pages'), 'LinkExpiredRoute');
const PrivacyPolicyRoute = lazyRoute(() => import('../features/auth/routes/simple-pages'), 'PrivacyPolicyRoute');
const TermsOfUseRoute = lazyRoute(() => import('../features/auth/routes/simple-pages'), 'TermsOfUseRoute');
const VerifyEmailRoute = lazyRoute(() => import('../features/auth/routes/simple-pages'), 'VerifyEmailRoute');
const VerifyOtpRoute = lazyRoute(() => import('../features/auth/routes/verify-otp'), 'VerifyOtpRoute');
const ProfileSettingRoute = lazyRoute(() => import('../features/settings/routes/profile-setting'), 'ProfileSettingRoute');
const DashboardRoute = lazyRoute(() => import('../features/dashboard/routes/dashboard'), 'DashboardRoute');
const RecertificationRoute = lazyRoute(() => import('../features/recertification/routes/recertification'), 'RecertificationRoute');
const RelocationRoute = lazyRoute(() => import('../features/relocation/routes/relocation'), 'RelocationRoute');
const HelpRoute = lazyRoute(() => import('../features/help/routes/help'), 'HelpRoute');
const TrainingRoute = lazyRoute(() => import('../features/training/routes/training'), 'TrainingRoute');
const ProfileRoute = lazyRoute(() => import('../features/profile/routes/profile'), 'ProfileRoute');
// The intake assistant.
const IntakeRoute = lazyRoute(() => import('../features/intake/routes/intake'), 'IntakeRoute');
const MyDocumentsRoute = lazyRoute(() => import('../features/documents/routes/my-documents'), 'MyDocumentsRoute');
const ManagerRecertificationRoute = lazyRoute(() => import('../features/recertification/routes/manager-recertification'), 'ManagerRecertificationRoute');
const ManagerHouseholdsRoute = lazyRoute(() => import('../features/recertification/routes/manager-households'), 'ManagerHouseholdsRoute');
const ManagerRelocationRoute = lazyRoute(() => import('../features/relocation/routes/manager-relocation'), 'ManagerRelocationRoute');
const ManagerRelocationsRoute = lazyRoute(() => import('../features/relocation/routes/manager-relocations'), 'ManagerRelocationsRoute');
const LandingRoute = lazyRoute(() => import('../features/landing/routes/landing'), 'LandingRoute');
const ApplicationRoute = lazyRoute(() => import('../features/lease-up/routes/application'), 'ApplicationRoute');
const ManagerApplicationsRoute = lazyRoute(() => import('../features/lease-up/routes/manager-applications'), 'ManagerApplicationsRoute');
const ManagerInboxRoute = lazyRoute(() => import('../features/manager-inbox/routes/manager-inbox'), 'ManagerInboxRoute');
const BulkBatchRoute = lazyRoute(() => import('../features/manager-inbox/routes/bulk-batch'), 'BulkBatchRoute');
const SupportTicketsRoute = lazyRoute(() => import('../features/support/routes/support-tickets'), 'SupportTicketsRoute');
const SupportTicketRoute = lazyRoute(() => import('../features/support/routes/support-ticket'), 'SupportTicketRoute');
const ManagerSupportTicketsRoute = lazyRoute(() => import('../features/support/routes/manager-support-tickets'), 'ManagerSupportTicketsRoute');
const ManagerSupportTicketRoute = lazyRoute(() => import('../features/support/routes/manager-support-ticket'), 'ManagerSupportTicketRoute');
const MyFavoritesRoute = lazyRoute(() => import('../features/favorites/routes/my-favorites'), 'MyFavoritesRoute');
const ManageOpportunitiesRoute = lazyRoute(() => import('../features/opportunities/routes/manage-opportunities'), 'ManageOpportunitiesRoute');
const OpportunityEditorRoute = lazyRoute(() => import('../features/opportunities/routes/opportunity-editor'), 'OpportunityEditorRoute');
const MyApplicationsRoute = lazyRoute(() => import('../features/lease-up/routes/my-applications'), 'MyApplicationsRoute');
const NotFoundRoute = lazyRoute(() => import('../features/misc/routes/not-found'), 'NotFoundRoute');
const OpportunitiesRoute = lazyRoute(() => import('../features/opportunities/routes/opportunities'), 'OpportunitiesRoute');
const OpportunityRoute = lazyRoute(() => import('../features/opportunities/routes/opportunity'), 'OpportunityRoute');
// The how-to videos.
const PlayVideoRoute = lazyRoute(() => import('../features/play-video/routes/play-video'), 'PlayVideoRoute');
// The signed-in pages' guards (role check, organisation link): not part of a public page's first load.
const Protected = lazyRoute(() => import('./guards'), 'Protected');
const ProtectedOpportunity = lazyRoute(() => import('./guards'), 'ProtectedOpportunity');

export const router = createBrowserRouter([
  {
    // Spec section 2: a `redirect` query parameter is read once at start (app/start-redirect.tsx).
    element: <StartRedirect />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: paths.landing.path, element: <LandingRoute /> },
          { path: paths.home.path, element: <LandingRoute /> },
          { path: paths.public.opportunities.path, element: <OpportunitiesRoute variant="public" /> },
          { path: paths.public.opportunity.path, element: <OpportunityRoute variant="public" /> },
          { path: paths.public.lotteryResults.path, element: <LotteryResultsRoute /> },
          { path: paths.public.getAlerts.path, element: <GetAlertsRoute /> },
          { path: paths.public.confirmAlert.path, element: <ConfirmAlertRoute /> },
          { path: paths.public.unsubscribeAlert.path, element: <UnsubscribeAlertRoute /> },
          { path: paths.public.waitlistCheckIn.path, element: <WaitlistCheckInRoute /> },
          {
            path: paths.login.path,
            element: (
              <SignedOutOnly>
                <LoginRoute />
              </SignedOutOnly>
            ),
          },
          // Spec section 2: signed-out-only pages send a signed-in visitor on; the others need no role.
          ...[
            { path: paths.auth.register.path, element: <RegisterRoute kind="applicant" /> },
            { path: paths.auth.organizationRegister.path, element: <RegisterRoute kind="organization" /> },
            { path: paths.auth.forgetPassword.path, element: <ForgetPasswordRoute /> },
            { path: paths.auth.forgetUsername.path, element: <ForgetUsernameRoute /> },
            { path: paths.auth.resetPassword.path, element: <ResetPasswordRoute /> },
            { path: paths.auth.verifyEmail.path, element: <VerifyEmailRoute /> },
            { path: paths.auth.verifyOtp.path, element: <VerifyOtpRoute /> },
            { path: paths.auth.chooseOtpMethod.path, element: <ChooseOtpMethodRoute /> },
            { path: paths.auth.profileMatching.path, element: <ProfileMatchingRoute /> },
            { path: paths.auth.linkProfile.path, element: <LinkProfileRoute /> },
            { path: paths.auth.link.path, element: <LinkRoute /> },
            { path: paths.auth.leaseUpProfileMatching.path, element: <LeaseUpProfileMatchingRoute /> },
          ].map((r) => ({ ...r, element: <SignedOutOnly>{r.element}</SignedOutOnly> })),
          { path: paths.auth.ambassadorRegister.path, element: <RegisterRoute kind="ambassador" /> },
          { path: paths.auth.forgetUsernameOtp.path, element: <ForgetUsernameOtpRoute /> },
          { path: paths.auth.linkExpired.path, element: <LinkExpiredRoute /> },
          { path: paths.auth.termsOfUse.path, element: <TermsOfUseRoute /> },
          { path: paths.auth.privacyPolicy.path, element: <PrivacyPolicyRoute /> },
          { path: paths.auth.requestImpersonateUser.path, element: <RequestImpersonateUserRoute /> },
          // No role needed (spec section 2). Section 2 also lists it as signed-out-only, but the
          // dashboard and the training page open it for signed-in residents, so nobody is sent away.
          { path: paths.playVideo.path, element: <PlayVideoRoute /> },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
      {
        element: <SignedInLayout />,
        children: [
          {
            element: <Protected roles={DASHBOARD_ROLES} />,
            children: [{ path: paths.app.dashboard.path, element: <DashboardRoute /> }],
          },
          {
            element: <Protected roles={RESIDENT_ROLES} />,
            children: [
              { path: paths.app.opportunities.path, element: <OpportunitiesRoute variant="app" /> },
              { path: paths.app.myApplications.path, element: <MyApplicationsRoute /> },
              { path: paths.app.claimPaper.path, element: <ClaimPaperRoute /> },
              { path: paths.app.myFavorites.path, element: <MyFavoritesRoute /> },
              { path: paths.app.alerts.path, element: <MyAlertsRoute /> },
              { path: paths.app.recertification.path, element: <RecertificationRoute /> },
              { path: paths.app.relocation.path, element: <RelocationRoute /> },
              { path: paths.app.training.path, element: <TrainingRoute /> },
              { path: paths.app.profile.path, element: <ProfileRoute /> },
              { path: paths.app.intake.path, element: <IntakeRoute /> },
              { path: paths.app.myDocument.path, element: <MyDocumentsRoute /> },
            ],
          },
          { path: paths.app.opportunity.path, element: <ProtectedOpportunity /> },
          {
            element: <Protected roles={APPLICATION_VIEWER_ROLES} />,
            children: [{ path: paths.app.application.path, element: <ApplicationRoute /> }],
          },
          {
            element: <Protected roles={MANAGER_ROLES} organization />,
            children: [
              { path: paths.manager.tasks.path, element: <ManagerInboxRoute /> },
              { path: paths.manager.bulkBatch.path, element: <BulkBatchRoute /> },
              { path: paths.manager.applications.path, element: <ManagerApplicationsRoute /> },
              { path: paths.manager.recertification.path, element: <ManagerRecertificationRoute /> },
              { path: paths.manager.recertifications.path, element: <ManagerHouseholdsRoute /> },
              { path: paths.manager.relocations.path, element: <ManagerRelocationsRoute /> },
              { path: paths.manager.relocation.path, element: <ManagerRelocationRoute /> },
              { path: paths.manager.opportunities.path, element: <ManageOpportunitiesRoute /> },
              { path: paths.manager.newOpportunity.path, element: <OpportunityEditorRoute /> },
              { path: paths.manager.editOpportunity.path, element: <OpportunityEditorRoute /> },
              { path: paths.manager.lottery.path, element: <ManageLotteryRoute /> },
              { path: paths.manager.waitlist.path, element: <ManageWaitlistRoute /> },
              { path: paths.manager.paperEntry.path, element: <PaperEntryRoute /> },
              { path: paths.manager.duplicates.path, element: <DuplicatesRoute /> },
              { path: paths.manager.printQueue.path, element: <PrintQueueRoute /> },
            ],
          },
          {
            element: <Protected roles={SUPPORT_TICKET_ROLES} />,
            children: [
              { path: paths.app.supportTickets.path, element: <SupportTicketsRoute /> },
              { path: paths.app.supportTicket.path, element: <SupportTicketRoute /> },
            ],
          },
          {
            element: <Protected roles={SUPPORT_STAFF_ROLES} />,
            children: [
              { path: paths.manager.supportTickets.path, element: <ManagerSupportTicketsRoute /> },
              { path: paths.manager.supportTicket.path, element: <ManagerSupportTicketRoute /> },
            ],
          },
          {
            element: <Protected roles={SETTINGS_ROLES} />,
            children: [
              { path: paths.settings.profileSetting.path, element: <ProfileSettingRoute /> },
              { path: paths.app.help.path, element: <HelpRoute /> },
            ],
          },
          {
            element: <Protected roles={AMBASSADOR_ROLES} organization />,
            children: [
              { path: paths.ambassador.dashboard.path, element: <AmbassadorDashboardRoute /> },
              { path: paths.ambassador.users.path, element: <AmbassadorUsersRoute /> },
              { path: paths.ambassador.organizations.path, element: <AmbassadorOrganizationsRoute /> },
              { path: paths.ambassador.userDashboard.path, element: <AmbassadorUserDashboardRoute /> },
            ],
          },
          {
            element: <Protected roles={ORGANIZATION_STAFF_ROLES} />,
            children: [{ path: paths.noOrganization.path, element: <NoOrganizationRoute /> }],
          },
          {
            element: <Protected roles={ADMIN_ROLES} />,
            children: [
              { path: paths.admin.users.path, element: <AdminUsersRoute /> },
              { path: paths.admin.organizations.path, element: <AdminOrganizationsRoute /> },
              { path: paths.admin.faq.path, element: <AdminFaqRoute /> },
              { path: paths.operator.console.path, element: <OperatorConsoleRoute /> },
              { path: paths.operator.case.path, element: <OperatorCaseRoute /> },
            ],
          },
        ],
      },
    ],
  },
]);
