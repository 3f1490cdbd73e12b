import { hasAccessLevel, REQUIRED_ACCESS_LEVEL } from './access-level';

describe('access levels (spec 1.7, 5.2)', () => {
  it('orders roles guest < reporter < developer < maintainer < owner', () => {
    expect(hasAccessLevel('owner', 'maintainer')).toBe(true);
    expect(hasAccessLevel('maintainer', 'maintainer')).toBe(true);
    expect(hasAccessLevel('developer', 'maintainer')).toBe(false);
    expect(hasAccessLevel('reporter', 'developer')).toBe(false);
    expect(hasAccessLevel('guest', 'guest')).toBe(true);
  });

  it('needs maintainer+ to manage integrations, developer+ for test alerts and alerts, owner for members', () => {
    expect(hasAccessLevel('developer', REQUIRED_ACCESS_LEVEL.manageIntegrations)).toBe(false);
    expect(hasAccessLevel('maintainer', REQUIRED_ACCESS_LEVEL.enableExternalLink)).toBe(true);
    expect(hasAccessLevel('developer', REQUIRED_ACCESS_LEVEL.sendTestAlert)).toBe(true);
    // A developer names the integration a test alert goes to: the list (no credentials) is developer+.
    expect(hasAccessLevel('developer', REQUIRED_ACCESS_LEVEL.listIntegrations)).toBe(true);
    expect(hasAccessLevel('reporter', REQUIRED_ACCESS_LEVEL.listIntegrations)).toBe(false);
    expect(hasAccessLevel('reporter', REQUIRED_ACCESS_LEVEL.sendTestAlert)).toBe(false);
    expect(hasAccessLevel('reporter', REQUIRED_ACCESS_LEVEL.readAlerts)).toBe(false);
    expect(hasAccessLevel('maintainer', REQUIRED_ACCESS_LEVEL.manageMembers)).toBe(false);
    expect(hasAccessLevel('guest', REQUIRED_ACCESS_LEVEL.readProject)).toBe(true);
  });
});
