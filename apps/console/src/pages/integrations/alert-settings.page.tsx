import { useAlertSettings, useUpdateAlertSettings } from '@console/api/incidents';
import { AlertSettings } from '@console/api/types';
import { useCurrentMessage } from '@console/components/current-message';
import { ErrorMessage, ErrorNotice, Loading } from '@console/components/error-message';
import { TabNav } from '@console/components/tab-nav';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { useCurrentProject } from '@console/pages/project-layout';

type Switch = keyof Omit<AlertSettings, 'email_configured'>;

const SWITCHES: Array<{ id: Switch; label: string; hint: string }> = [
  { id: 'create_incident', label: 'Create an incident', hint: 'Open an incident for each triggered alert (not for grouped events or resolutions).' },
  { id: 'send_email', label: 'Send a single email notification', hint: 'Email owners and maintainers of the project about new and resolved alerts (never about grouped repeats).' },
  {
    id: 'auto_close_incident',
    label: 'Automatically close associated incident',
    hint: 'Close an incident when a recovery alert resolves the last of its alerts still open; while another still fires the incident stays open and its timeline says so (an alert resolved by hand leaves it open).',
  },
];

/** The top of Settings > Monitor > Alerts: where it is, its title, and its tabs (its integrations, the alert settings) for those who may use both. */
export function AlertsSettingsHeader({ projectId, active, tabs }: { projectId: number; active: 'integrations' | 'settings'; tabs: boolean }) {
  const base = `/projects/${projectId}/settings/alerts`;
  return (
    <>
      <nav aria-label="Settings" className="breadcrumb">
        <span>Settings</span> <span aria-hidden="true">›</span> <span>Monitor</span>
      </nav>
      <div className="page-title">
        <h1>Alerts</h1>
      </div>
      {tabs && (
        <TabNav
          label="Alerts settings"
          tabs={[
            { id: 'integrations', label: 'Current integrations', to: base, active: active === 'integrations' },
            { id: 'settings', label: 'Alert settings', to: `${base}/alert_settings`, active: active === 'settings' },
          ]}
        />
      )}
    </>
  );
}

/**
 * Settings > Monitor > Alerts > Alert settings: GitLab's three switches, each saved when changed
 * (maintainer+); developers, who may read them, see them read-only. Each switch is described by its
 * hint; the outcome of a change is said under the switches, so it never moves them.
 */
export function AlertSettingsPage() {
  const project = useCurrentProject();
  usePageTitle('Alert settings', 'Settings › Monitor › Alerts', project.path);
  const allowed = can(project, 'manageAlertSettings');
  const readable = can(project, 'readAlertSettings');
  const settings = useAlertSettings(project.id, readable);
  const update = useUpdateAlertSettings(project.id);
  const message = useCurrentMessage();

  // While a change is saving, another is ignored rather than the switches disabled: disabling would
  // take the focus from the switch just pressed.
  const toggle = (id: Switch, on: boolean) =>
    !update.isPending &&
    update.mutate(
      { [id]: on },
      {
        onSuccess: () => message.success(`${SWITCHES.find((item) => item.id === id)?.label}: ${on ? 'on' : 'off'}.`),
        onError: (error) => message.error(error, 'Not saved'),
      },
    );

  return (
    <section className="page">
      <AlertsSettingsHeader projectId={project.id} active="settings" tabs={allowed} />
      {!readable ? (
        <ErrorNotice>Alert settings are seen by developers and changed by maintainers and owners of the project.</ErrorNotice>
      ) : settings.isPending ? (
        <Loading what="the alert settings" />
      ) : (
        <div className="card">
          <h2>Alert settings</h2>
          {!allowed && <p className="notice notice-info">You see these settings read-only: maintainers and owners of the project change them.</p>}
          <ErrorMessage error={settings.error} />
          {settings.data && (
            <fieldset className="switches" aria-busy={update.isPending} disabled={!allowed}>
              <legend className="visually-hidden">Alert settings</legend>
              {SWITCHES.map((item) => {
                const hintId = `alert-setting-${item.id}-hint`;
                const warningId = item.id === 'send_email' && !settings.data.email_configured ? `alert-setting-${item.id}-warning` : undefined;
                return (
                  <div key={item.id} className="switch">
                    <label>
                      <input
                        type="checkbox"
                        role="switch"
                        checked={settings.data[item.id]}
                        aria-describedby={[hintId, warningId].filter(Boolean).join(' ')}
                        onChange={(event) => toggle(item.id, event.target.checked)}
                      />{' '}
                      {item.label}
                    </label>
                    <div className="hint" id={hintId}>
                      {item.hint}
                    </div>
                    {warningId && (
                      <div className="hint warning" id={warningId}>
                        Email is not configured on this service (SMTP_URL): no email is sent until it is.
                      </div>
                    )}
                  </div>
                );
              })}
            </fieldset>
          )}
          {message.view}
        </div>
      )}
    </section>
  );
}
