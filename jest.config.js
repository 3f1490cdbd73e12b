// One Jest run, two projects: `unit` (specs next to the code, bench's pure helpers included; no I/O) and `integration`
// (specs under each app's or lib's test/ folder, against real PostgreSQL and Kafka that
// tools/test/global-setup.ts provides for the run).
const { compilerOptions } = require('./tsconfig.base.json');
const fs = require('node:fs');

// The code under test requires NestJS 12's ES modules, which Jest loads only through Node's VM
// modules API: the project's .npmrc passes --experimental-vm-modules to whatever npm starts.
const nodeOptions = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
if (!nodeOptions.includes('--experimental-vm-modules')) {
  throw new Error('Jest needs Node.js started with --experimental-vm-modules: run it through npm (npm test, npx jest), which adds it (.npmrc)');
}

const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcrc.$schema;

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swcrc] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  setupFiles: ['reflect-metadata'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.kafka/', '/.data/'],
};

module.exports = {
  // Jest keeps some memory of every spec file it has run in the process that ran it (Node's VM
  // modules, which NestJS 12 needs, make it worse): on a 2-core machine, where one process runs every
  // file, a whole run reached Node's 4 GB heap and aborted near its end. Set, this makes Jest run the
  // files in a worker even when there is one, and start a fresh worker once a file leaves it above 2 GB.
  workerIdleMemoryLimit: '2GB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools,bench}/**/src/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/test/**/*.spec.ts'],
      globalSetup: '<rootDir>/tools/test/global-setup.ts',
      globalTeardown: '<rootDir>/tools/test/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/tools/test/integration-setup.ts'],
    },
  ],
};
