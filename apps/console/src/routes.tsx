import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { AppShell } from './components/app-shell';
import { AdminPage } from './pages/admin.page';
import { ProfilePage } from './pages/profile.page';
import { AlertDetailPage } from './pages/alerts/alert-pages';
import { AlertsPage } from './pages/alerts/alerts.page';
import { SendTestAlertPage, SendTestAlertToIntegrationPage } from './pages/alerts/send-test-alert.page';
import { DeprecationsPage } from './pages/deprecations/deprecations.page';
import { IncidentDetailPage } from './pages/incidents/incident-detail.page';
import { IncidentsPage } from './pages/incidents/incidents.page';
import { AlertSettingsPage } from './pages/integrations/alert-settings.page';
import { IntegrationPage } from './pages/integrations/integration.page';
import { IntegrationsPage } from './pages/integrations/integrations.page';
import { MembersPage } from './pages/members.page';
import { NotFoundPage } from './pages/not-found.page';
import { OncallSchedulePage, OncallSchedulesPage, RotationFormPage } from './pages/oncall/oncall-pages';
import { EscalationPolicyPage } from './pages/escalation/escalation-pages';
import { ProjectHome, ProjectLayout } from './pages/project-layout';
import { ProjectsPage } from './pages/projects.page';
import { SilenceFormPage } from './pages/silences/silence-form.page';
import { SilencesPage } from './pages/silences/silences.page';
import { SignInPage } from './pages/sign-in.page';
import { useSession } from './session/session';

/**
 * Pages that need a token send the visitor to sign in, and back here afterwards, unless the
 * user signed out: whoever signs in next starts from their projects.
 */
function RequireSession() {
  const { token, signedOut } = useSession();
  const location = useLocation();
  if (!token) {
    return <Navigate to="/sign-in" replace state={signedOut ? undefined : { from: `${location.pathname}${location.search}` }} />;
  }
  return <Outlet />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route element={<AppShell />}>
        {/* The deprecation catalogue and checker are open to anyone, like their API. */}
        <Route path="/deprecations/:view?" element={<DeprecationsPage />} />
        <Route element={<RequireSession />}>
          <Route index element={<Navigate to="/projects" replace />} />
          <Route path="/projects" element={<ProjectsPage />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="/profile" element={<ProfilePage />} />
          <Route path="/projects/:projectId" element={<ProjectLayout />}>
            <Route index element={<ProjectHome />} />
            <Route path="alerts" element={<AlertsPage />} />
            <Route path="alerts/test-alert" element={<SendTestAlertPage />} />
            <Route path="alerts/test-alert/:integrationId" element={<SendTestAlertToIntegrationPage />} />
            <Route path="alerts/:iid" element={<AlertDetailPage />} />
            <Route path="incidents" element={<IncidentsPage />} />
            <Route path="incidents/:iid" element={<IncidentDetailPage />} />
            <Route path="silences" element={<SilencesPage />} />
            <Route path="silences/new" element={<SilenceFormPage />} />
            <Route path="silences/:silenceId/edit" element={<SilenceFormPage />} />
            <Route path="oncall" element={<OncallSchedulesPage />} />
            <Route path="oncall/:scheduleId" element={<OncallSchedulePage />} />
            <Route path="oncall/:scheduleId/rotations/new" element={<RotationFormPage />} />
            <Route path="oncall/:scheduleId/rotations/:rotationId/edit" element={<RotationFormPage />} />
            <Route path="escalation" element={<EscalationPolicyPage />} />
            <Route path="settings/alerts" element={<IntegrationsPage />} />
            <Route path="settings/alerts/new" element={<IntegrationPage />} />
            <Route path="settings/alerts/alert_settings" element={<AlertSettingsPage />} />
            <Route path="settings/alerts/:integrationId/:tab?" element={<IntegrationPage />} />
            <Route path="members" element={<MembersPage />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
