#!/usr/bin/env node
// Compiles apps/, libs/ and tools/ with swc into dist/ (same tree), rewriting the tsconfig path
// aliases (@alert-ingestion/*) into relative requires, and copies the non-TypeScript files the
// code loads at run time (data files, generated assets). Type-checking is `tsc` (npm run typecheck).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '..', '..');
const outDir = path.join(root, 'dist');
const sourceRoots = ['apps', 'libs', 'tools', 'bench'];
const skipDirs = new Set(['node_modules', 'dist', 'test', 'coverage', '.kafka', '.data']);

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
      if (!skipDirs.has(entry.name)) yield* walk(path.join(dir, entry.name));
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
  for (const dir of sourceRoots) fs.rmSync(path.join(outDir, dir), { recursive: true, force: true });

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
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
