#!/usr/bin/env node
// Compiles apps/, libs/ and tools/ with swc into dist/ (same tree), rewriting the tsconfig path
// aliases (@alert-ingestion/*) into relative requires, and copies the non-TypeScript files the
// code loads at run time (data files, generated assets). Then it writes the HTTP API's types from
// integration-config's OpenAPI document (tools/console-api, into libs/shared/contracts/src/http), and
// the web console (apps/console), a browser bundle, is built by Vite into dist/apps/console.
// `--server-only` stops before the console's bundle (and keeps the one built before): `npm run
// typecheck` needs only the HTTP types. `--check` (`npm run console-api:check`) writes no HTTP types:
// it fails when the committed ones are not what the services generate. Type-checking is `tsc`
// (npm run typecheck).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '..', '..');
const outDir = path.join(root, 'dist');
const sourceRoots = ['apps', 'libs', 'tools', 'bench'];
const skipDirs = new Set(['node_modules', 'dist', 'test', 'coverage', '.kafka', '.data']);
const consoleRoot = path.join(root, 'apps', 'console');

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function swcOptions() {
  const swcrc = readJson(path.join(root, '.swcrc'));
  delete swcrc.$schema;
  const { compilerOptions } = readJson(path.join(root, 'tsconfig.base.json'));
  return {
    ...swcrc,
    swcrc: false,
    configFile: false,
    jsc: {
      ...swcrc.jsc,
      // Absolute, so that swc resolves each alias to a path relative to the file being compiled.
      baseUrl: root,
      paths: compilerOptions.paths,
    },
  };
}

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const child = path.join(dir, entry.name);
      if (!skipDirs.has(entry.name) && child !== consoleRoot) yield* walk(child);
    } else if (entry.isFile()) {
      yield path.join(dir, entry.name);
    }
  }
}

function isCompiled(file) {
  return file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.spec.ts');
}

/** Run-time assets: any non-TypeScript file inside a src/ folder (JSON/YAML data, generated .js/.wasm). */
function isAsset(file) {
  const relative = path.relative(root, file).split(path.sep);
  return relative.includes('src') && !file.endsWith('.ts') && !path.basename(file).startsWith('.');
}

async function main() {
  const started = Date.now();
  const options = swcOptions();
  const serverOnly = process.argv.includes('--server-only');
  const consoleOut = path.join(outDir, 'apps', 'console');
  for (const dir of sourceRoots) {
    const target = path.join(outDir, dir);
    if (serverOnly && dir === 'apps' && fs.existsSync(target)) {
      for (const app of fs.readdirSync(target)) if (path.join(target, app) !== consoleOut) fs.rmSync(path.join(target, app), { recursive: true, force: true });
    } else {
      fs.rmSync(target, { recursive: true, force: true });
    }
  }

  const files = sourceRoots.filter((dir) => fs.existsSync(path.join(root, dir))).flatMap((dir) => [...walk(path.join(root, dir))]);
  const compiled = files.filter(isCompiled);
  const assets = files.filter(isAsset);

  await Promise.all(
    compiled.map(async (file) => {
      const target = path.join(outDir, path.relative(root, file)).replace(/\.ts$/, '.js');
      const output = await swc.transformFile(file, {
        ...options,
        filename: file,
        sourceFileName: path.relative(path.dirname(target), file),
        outputPath: target,
      });
      fs.mkdirSync(path.dirname(target), { recursive: true });
      let code = output.code;
      if (output.map) {
        fs.writeFileSync(`${target}.map`, output.map);
        code += `\n//# sourceMappingURL=${path.basename(target)}.map\n`;
      }
      fs.writeFileSync(target, code);
    }),
  );
  for (const file of assets) {
    const target = path.join(outDir, path.relative(root, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
  }
  console.log(`build: ${compiled.length} files compiled, ${assets.length} assets copied to dist/ in ${Date.now() - started} ms`);
  // The HTTP API's types come from the services just compiled; a DTO whose decorators say other than
  // its TypeScript, or a server that drifts from the console, then fails the type-check.
  const check = process.argv.includes('--check') ? ['--check'] : [];
  const consoleApi = spawnSync(process.execPath, [path.join(outDir, 'tools', 'console-api', 'src', 'main.js'), ...check], { stdio: 'inherit' });
  if (consoleApi.status !== 0) process.exit(consoleApi.status ?? 1);
  if (!serverOnly) await buildConsole();
}

/** Vite production build of the web console; prints what a browser downloads, raw and gzipped. */
async function buildConsole() {
  const started = Date.now();
  const { build } = await import('vite');
  await build({ configFile: path.join(consoleRoot, 'vite.config.mts'), logLevel: 'warn' });
  const consoleOut = path.join(outDir, 'apps', 'console');
  const files = [...walk(consoleOut)].filter((file) => /\.(js|css|html|svg)$/.test(file));
  const raw = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
  const gzip = files.reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length, 0);
  const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
  console.log(`build: web console into dist/apps/console in ${Date.now() - started} ms: ${files.length} files, ${kB(raw)} (${kB(gzip)} gzip)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
