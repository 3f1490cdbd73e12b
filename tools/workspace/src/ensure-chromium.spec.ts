// The first step of `npm test` and of .ci/run (a plain CommonJS script, so that it runs before anything is built).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumPlan } = require('../../build/ensure-chromium.js') as {
  chromiumPlan(machine: { chromium: boolean; aptGet: boolean; root: boolean; sudo: boolean }): { action: 'none' } | { action: 'install'; commands: string[][] } | { action: 'fail'; message: string };
};

const INSTALL = ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '--no-install-recommends', 'chromium'];

describe("installing Debian's Chromium for the end-to-end specs", () => {
  it('does nothing when /usr/bin/chromium is there, whoever runs it', () => {
    expect(chromiumPlan({ chromium: true, aptGet: true, root: false, sudo: false })).toEqual({ action: 'none' });
    expect(chromiumPlan({ chromium: true, aptGet: false, root: false, sudo: false })).toEqual({ action: 'none' });
  });

  it("installs the distribution's package as root", () => {
    expect(chromiumPlan({ chromium: false, aptGet: true, root: true, sudo: false })).toEqual({ action: 'install', commands: [['apt-get', 'update'], INSTALL] });
  });

  it('installs it through sudo without a password when not root', () => {
    expect(chromiumPlan({ chromium: false, aptGet: true, root: false, sudo: true })).toEqual({
      action: 'install',
      commands: [
        ['sudo', '-n', 'apt-get', 'update'],
        ['sudo', '-n', ...INSTALL],
      ],
    });
  });

  it('fails naming the command to run when it may neither be root nor use sudo', () => {
    const plan = chromiumPlan({ chromium: false, aptGet: true, root: false, sudo: false });
    expect(plan).toMatchObject({ action: 'fail' });
    expect(plan.action === 'fail' && plan.message).toContain('sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium');
  });

  it('fails saying what is needed on a machine without apt-get', () => {
    const plan = chromiumPlan({ chromium: false, aptGet: false, root: true, sudo: false });
    expect(plan).toMatchObject({ action: 'fail' });
    expect(plan.action === 'fail' && plan.message).toContain('no apt-get');
  });
});
