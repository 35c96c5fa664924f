import { createBrowserRouter, Outlet, useParams } from 'react-router-dom';
import { PublicLayout } from '../components/layouts/public-layout';
import { SignedInLayout } from '../components/layouts/signed-in-layout';
import { paths } from '../config/paths';
import { ADMIN_ROLES, AMBASSADOR_ROLES, APPLICATION_VIEWER_ROLES, DASHBOARD_ROLES, MANAGER_ROLES, ORGANIZATION_STAFF_ROLES, RESIDENT_ROLES, SETTINGS_ROLES } from '../config/roles';
import { ProtectedRoute } from '../features/auth/components/protected-route';
import { SignedOutOnly } from '../features/auth/components/signed-out-only';
import { LoginRoute } from '../features/auth/routes/login';
import { AmbassadorDashboardRoute } from '../features/ambassador/routes/ambassador-dashboard';
import { AmbassadorOrganizationsRoute } from '../features/ambassador/routes/ambassador-organizations';
import { AmbassadorUserDashboardRoute } from '../features/ambassador/routes/ambassador-user-dashboard';
import { AmbassadorUsersRoute } from '../features/ambassador/routes/ambassador-users';
import { NoOrganizationRoute } from '../features/ambassador/routes/no-organization';
import { RequireOrganization } from '../features/ambassador/components/require-organization';
import { AdminOrganizationsRoute } from '../features/admin/routes/admin-organizations';
import { AdminUsersRoute } from '../features/admin/routes/admin-users';
import { ChooseOtpMethodRoute } from '../features/auth/routes/choose-otp-method';
import { ForgetPasswordRoute } from '../features/auth/routes/forget-password';
import { ForgetUsernameOtpRoute, ForgetUsernameRoute } from '../features/auth/routes/forget-username';
import { LeaseUpProfileMatchingRoute, LinkProfileRoute, LinkRoute } from '../features/auth/routes/lease-up-matching';
import { ProfileMatchingRoute } from '../features/auth/routes/profile-matching';
import { RegisterRoute } from '../features/auth/routes/register';
import { RequestImpersonateUserRoute } from '../features/auth/routes/request-impersonate-user';
import { ResetPasswordRoute } from '../features/auth/routes/reset-password';
import { LinkExpiredRoute, PrivacyPolicyRoute, TermsOfUseRoute, VerifyEmailRoute } from '../features/auth/routes/simple-pages';
import { VerifyOtpRoute } from '../features/auth/routes/verify-otp';
import { ProfileSettingRoute } from '../features/settings/routes/profile-setting';
import { DashboardRoute } from '../features/dashboard/routes/dashboard';
import { RecertificationRoute } from '../features/recertification/routes/recertification';
import { RelocationRoute } from '../features/relocation/routes/relocation';
import { TrainingRoute } from '../features/training/routes/training';
import { ProfileRoute } from '../features/profile/routes/profile';
import { MyDocumentsRoute } from '../features/documents/routes/my-documents';
import { ManagerRecertificationRoute } from '../features/recertification/routes/manager-recertification';
import { ManagerRelocationRoute } from '../features/relocation/routes/manager-relocation';
import { ManagerRelocationsRoute } from '../features/relocation/routes/manager-relocations';
import { LandingRoute } from '../features/landing/routes/landing';
import { ApplicationRoute } from '../features/lease-up/routes/application';
import { ManagerTasksRoute } from '../features/lease-up/routes/manager-tasks';
import { MyFavoritesRoute } from '../features/favorites/routes/my-favorites';
import { ManageOpportunitiesRoute } from '../features/opportunities/routes/manage-opportunities';
import { MyApplicationsRoute } from '../features/lease-up/routes/my-applications';
import { NotFoundRoute } from '../features/misc/routes/not-found';
import { OpportunitiesRoute } from '../features/opportunities/routes/opportunities';
import { OpportunityRoute } from '../features/opportunities/routes/opportunity';
import { LotteryResultsRoute } from '../features/lottery-results/routes/lottery-results';
import type { Role } from '../lib/domain';

function Protected({ roles, organization = false }: { roles: readonly Role[]; organization?: boolean }) {
  return (
    <ProtectedRoute roles={roles}>
      {/* Spec section 2: staff with no linked organisation see the no-permission page instead. */}
      {organization ? (
        <RequireOrganization>
          <Outlet />
        </RequireOrganization>
      ) : (
        <Outlet />
      )}
    </ProtectedRoute>
  );
}

/** Spec section 2: without a resident role the opportunity detail falls back to its public page. */
function ProtectedOpportunity() {
  const { id = '' } = useParams();
  return (
    <ProtectedRoute roles={RESIDENT_ROLES} fallback={paths.public.opportunity.getHref(id)}>
      <OpportunityRoute variant="app" />
    </ProtectedRoute>
  );
}

export const router = createBrowserRouter([
  {
    element: <PublicLayout />,
    children: [
      { path: paths.landing.path, element: <LandingRoute /> },
      { path: paths.home.path, element: <LandingRoute /> },
      { path: paths.public.opportunities.path, element: <OpportunitiesRoute variant="public" /> },
      { path: paths.public.opportunity.path, element: <OpportunityRoute variant="public" /> },
      { path: paths.public.lotteryResults.path, element: <LotteryResultsRoute /> },
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
          { path: paths.app.myFavorites.path, element: <MyFavoritesRoute /> },
          { path: paths.app.recertification.path, element: <RecertificationRoute /> },
          { path: paths.app.relocation.path, element: <RelocationRoute /> },
          { path: paths.app.training.path, element: <TrainingRoute /> },
          { path: paths.app.profile.path, element: <ProfileRoute /> },
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
          { path: paths.manager.tasks.path, element: <ManagerTasksRoute /> },
          { path: paths.manager.recertification.path, element: <ManagerRecertificationRoute /> },
          { path: paths.manager.relocations.path, element: <ManagerRelocationsRoute /> },
          { path: paths.manager.relocation.path, element: <ManagerRelocationRoute /> },
          { path: paths.manager.opportunities.path, element: <ManageOpportunitiesRoute /> },
        ],
      },
      {
        element: <Protected roles={SETTINGS_ROLES} />,
        children: [{ path: paths.settings.profileSetting.path, element: <ProfileSettingRoute /> }],
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
        ],
      },
    ],
  },
]);
