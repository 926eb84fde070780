#!/usr/bin/env node
// Checks that a `pnpm deploy` output holds only packages at the versions pnpm-lock.yaml pins.
// pnpm 9's deploy resolves the services' version ranges again instead of reading the lockfile, so
// an image could carry a version no test ran against; deploy/build.sh runs this after each deploy
// and fails the build instead.
//   node deploy/lock-check.cjs pnpm-lock.yaml OUT/<service> [...]
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** `name@version` of every package the lockfile pins (its `packages:` section, lockfile v9). */
function pinned(lockText) {
  const section = lockText.split('\npackages:\n')[1];
  if (section === undefined) throw new Error('the lockfile has no packages: section');
  const body = section.split(/\n(?=\S)/)[0];
  const keys = new Set();
  for (const m of body.matchAll(/^ {2}'?(@?[^@\s']+)@([^:('\s]+)'?:/gm)) keys.add(`${m[1]}@${m[2]}`);
  return keys;
}

/** `name@version` of a folder of node_modules/.pnpm (`@scope+name@1.2.3_peer@4` → `@scope/name@1.2.3`). */
function installed(dirName) {
  // A name holds no @ past its scope's (it may hold _, as string_decoder); the version ends at a
  // peer suffix (_ or parentheses).
  const m = /^(@?[^@]+)@([^_(]+)/.exec(dirName);
  return m ? `${m[1].replace('+', '/')}@${m[2]}` : null;
}

/** The deployed packages the lockfile does not pin (workspace packages, `file:` versions, are ours). */
function unpinned(lockText, deployDir) {
  const keys = pinned(lockText);
  const store = path.join(deployDir, 'node_modules', '.pnpm');
  const out = [];
  for (const dir of fs.readdirSync(store)) {
    if (dir === 'node_modules' || dir === 'lock.yaml') continue;
    const id = installed(dir);
    if (id === null) out.push(dir);
    else if (!id.includes('@file+') && !keys.has(id)) out.push(id);
  }
  return out;
}

module.exports = { pinned, installed, unpinned };

if (require.main === module) {
  const [lock, ...dirs] = process.argv.slice(2);
  const lockText = fs.readFileSync(lock, 'utf8');
  let failed = false;
  for (const dir of dirs) {
    const off = unpinned(lockText, dir);
    if (off.length) {
      failed = true;
      console.error(`${dir}: ${off.length} package(s) not at the lockfile's versions: ${off.join(', ')}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
