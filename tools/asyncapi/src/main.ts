import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { breakingChanges, committedFiles, generatedFiles, staleFiles } from './asyncapi-files';

/**
 * `npm run asyncapi`: writes the AsyncAPI document, the message schemas and docs/events.md from
 * TOPIC_REGISTRY and the contract types. It refuses a change that breaks a committed schema
 * (the field and the rule named): a breaking change is a new topic version.
 * `npm run asyncapi -- --check` (part of `npm test`): fails on a breaking change, then on any file
 * that is not what the code generates.
 */
function main(): number {
  const started = Date.now();
  // Run from the build: dist/tools/asyncapi/src.
  const root = join(__dirname, '..', '..', '..', '..');
  const check = process.argv.includes('--check');
  const generated = generatedFiles(root);
  const committed = committedFiles(root);
  const breaking = breakingChanges(committed, generated);
  if (breaking.length > 0) {
    console.error(`asyncapi: the code breaks the published schemas of its topics:\n  ${breaking.join('\n  ')}`);
    return 1;
  }
  const stale = staleFiles(committed, generated);
  if (check) {
    if (stale.length === 0) return 0;
    console.error(`asyncapi: out of date with TOPIC_REGISTRY and the contract types, run \`npm run asyncapi\`:\n  ${stale.join('\n  ')}`);
    return 1;
  }
  for (const path of stale) {
    const text = generated.get(path);
    if (text === undefined) {
      rmSync(join(root, path));
      continue;
    }
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  console.log(`asyncapi: ${generated.size} files, ${stale.length} written or removed, in ${Date.now() - started} ms`);
  return 0;
}

process.exitCode = main();
