#!/usr/bin/env node
// The console's end-to-end specs drive Debian's Chromium at /usr/bin/chromium (no test tool downloads
// a browser). `npm test` and .ci/run both start with this script: when the browser is missing it is
// installed from the distribution's packages, as root or through sudo without a password; when
// neither is possible it fails with the command to run. A plain CommonJS script: it runs before
// anything is built.
'use strict';

const fs = require('node:fs');
const { spawnSync } = require('node:child_process');

const CHROMIUM = '/usr/bin/chromium';

/** The commands that install Debian's chromium, each an argv. */
const INSTALL = [
  ['apt-get', 'update'],
  ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '--no-install-recommends', 'chromium'],
];

/**
 * What to do, from what the machine offers: `{action: 'none'}` when the browser is there,
 * `{action: 'install', commands}` (each an argv, `sudo -n` in front when not root), or
 * `{action: 'fail', message}` naming the command a person should run.
 *   machine: {chromium: boolean, aptGet: boolean, root: boolean, sudo: boolean}
 */
function chromiumPlan(machine) {
  if (machine.chromium) return { action: 'none' };
  const manual = 'sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium';
  if (!machine.aptGet) {
    return {
      action: 'fail',
      message: `Chromium is missing at ${CHROMIUM}, which the console's end-to-end tests drive, and this machine has no apt-get to install Debian's package: install Chromium so that ${CHROMIUM} runs it.`,
    };
  }
  if (machine.root) return { action: 'install', commands: INSTALL };
  if (machine.sudo) return { action: 'install', commands: INSTALL.map((command) => ['sudo', '-n', ...command]) };
  return {
    action: 'fail',
    message: `Chromium is missing at ${CHROMIUM}, which the console's end-to-end tests drive, and installing it needs root (no password-less sudo here). Run:\n  ${manual}\nthen npm test again.`,
  };
}

/** Whether `command` runs and exits 0. */
function succeeds(command, args) {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return result.error === undefined && result.status === 0;
}

/** What this machine offers. */
function thisMachine() {
  let chromium = false;
  try {
    fs.accessSync(CHROMIUM, fs.constants.X_OK);
    chromium = true;
  } catch {
    chromium = false;
  }
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return { chromium, aptGet: succeeds('apt-get', ['--version']), root, sudo: !root && succeeds('sudo', ['-n', 'true']) };
}

module.exports = { CHROMIUM, chromiumPlan };

if (require.main === module) {
  const plan = chromiumPlan(thisMachine());
  if (plan.action === 'fail') {
    process.stderr.write(`${plan.message}\n`);
    process.exit(1);
  }
  if (plan.action === 'install') {
    process.stdout.write(`Chromium is missing at ${CHROMIUM}: installing Debian's package.\n`);
    for (const [command, ...args] of plan.commands) {
      const result = spawnSync(command, args, { stdio: 'inherit' });
      if (result.status !== 0) {
        process.stderr.write(`${[command, ...args].join(' ')} failed (${result.error ? result.error.message : `exit ${result.status}`}).\n`);
        process.exit(1);
      }
    }
  }
}
