#!/usr/bin/env node
// Generates the Prisma client (prisma/schema.prisma -> libs/shared/database/src/generated) with no
// network. `npm ci` runs no install scripts, so build, test and start call this first.
//
// The Prisma CLI wants a schema-engine binary before it generates, and would download it from
// binaries.prisma.sh. Generation itself does not use the engine, so when no real engine is
// installed PRISMA_SCHEMA_ENGINE_BINARY points at a stand-in that fails loudly if ever executed.
// Migrations never need the engine here (libs/shared/database applies them with pg).
//
// Skips generation when the schema and the Prisma version are unchanged since the last run.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..', '..');
const schema = path.join(root, 'prisma', 'schema.prisma');
const outputDir = path.join(root, 'libs', 'shared', 'database', 'src', 'generated');
const stampFile = path.join(outputDir, '.schema-stamp');

function prismaVersion() {
  return require(path.join(root, 'node_modules', 'prisma', 'package.json')).version;
}

function stamp() {
  return createHash('sha256')
    .update(fs.readFileSync(schema))
    .update(fs.readFileSync(path.join(root, 'prisma.config.ts')))
    .update(prismaVersion())
    .digest('hex');
}

function realSchemaEngine() {
  for (const dir of [path.join(root, 'node_modules', '@prisma', 'engines'), path.join(root, 'node_modules', 'prisma')]) {
    if (!fs.existsSync(dir)) continue;
    const engine = fs.readdirSync(dir).find((name) => name.startsWith('schema-engine-'));
    if (engine) return path.join(dir, engine);
  }
  return undefined;
}

function standInSchemaEngine() {
  const file = path.join(os.tmpdir(), 'alert-ingestion-schema-engine-unavailable');
  const script = [
    '#!/bin/sh',
    'echo "The Prisma schema engine is not installed here (it downloads from binaries.prisma.sh)." >&2',
    'echo "Migrations are applied by libs/shared/database (npm start, tests, service start-up)." >&2',
    'exit 1',
    '',
  ].join('\n');
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== script) fs.writeFileSync(file, script, { mode: 0o755 });
  return file;
}

function main() {
  if (!fs.existsSync(schema)) {
    console.error(`prisma:generate: ${path.relative(root, schema)} does not exist`);
    process.exit(1);
  }
  const current = stamp();
  const force = process.argv.includes('--force');
  if (!force && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === current) {
    return;
  }
  const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
  if (!env.PRISMA_SCHEMA_ENGINE_BINARY && !realSchemaEngine()) {
    env.PRISMA_SCHEMA_ENGINE_BINARY = standInSchemaEngine();
  }
  const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
  const result = spawnSync(process.execPath, [cli, 'generate', '--schema', schema], { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.mkdirSync(outputDir, { recursive: true });
  fs.writeFileSync(stampFile, current);
}

main();
