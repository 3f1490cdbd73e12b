#!/usr/bin/env node
// Folders show owners: a library under libs/<owner>/ carries that owner's scope tag, so where a file
// sits says which service owns it. Run by `npm run lint` before ESLint, whose module-boundary rule
// then keeps every import inside what the tags allow.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** The owner folder under libs/ and the scope tag its libraries must carry. */
const SCOPE_OF_FOLDER = {
  gateway: 'scope:gateway',
  processor: 'scope:processor',
  'integration-config': 'scope:config',
  shared: 'scope:shared',
};

/**
 * The problems with the given libraries: each is `{ root, tags }`, root relative to the repository
 * (`libs/<owner>/<library>`). A library outside an owner folder, nested elsewhere, or whose scope tag
 * is not its folder's, is one problem each.
 */
function folderScopeProblems(libraries) {
  const problems = [];
  for (const { root, tags } of libraries) {
    const parts = root.split('/');
    const owner = parts[1];
    const expected = SCOPE_OF_FOLDER[owner];
    if (parts[0] !== 'libs' || parts.length !== 3 || expected === undefined) {
      problems.push(`${root}: a library sits at libs/<owner>/<name>, owner one of ${Object.keys(SCOPE_OF_FOLDER).join(', ')}`);
      continue;
    }
    const scopes = tags.filter((tag) => tag.startsWith('scope:'));
    if (scopes.length !== 1 || scopes[0] !== expected) {
      problems.push(`${root}: in libs/${owner}/ its tags must hold ${expected} (and no other scope), not ${JSON.stringify(scopes)}`);
    }
  }
  return problems;
}

/** Every library of the workspace: the folders under libs/ holding a project.json. */
function workspaceLibraries(repoRoot) {
  const libraries = [];
  const visit = (dir) => {
    const manifest = path.join(dir, 'project.json');
    if (fs.existsSync(manifest)) {
      const root = path.relative(repoRoot, dir).split(path.sep).join('/');
      libraries.push({ root, tags: JSON.parse(fs.readFileSync(manifest, 'utf8')).tags ?? [] });
      return;
    }
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'node_modules') visit(path.join(dir, entry.name));
    }
  };
  visit(path.join(repoRoot, 'libs'));
  return libraries;
}

module.exports = { SCOPE_OF_FOLDER, folderScopeProblems, workspaceLibraries };

if (require.main === module) {
  const problems = folderScopeProblems(workspaceLibraries(path.join(__dirname, '..', '..')));
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  process.exit(problems.length === 0 ? 0 : 1);
}
