#!/usr/bin/env node
// The installed `mm` command: the compiled bundle when built (`pnpm --filter @mm/cli build`: plain
// JavaScript, quick to start), else the TypeScript sources through tsx, like the services.
const { existsSync } = require('node:fs');
const path = require('node:path');

const built = path.join(__dirname, '..', 'dist', 'mm.cjs');
let cli;
if (existsSync(built)) cli = require(built);
else {
  require('tsx/cjs');
  cli = require('../src/main.ts');
}
cli.main(process.argv.slice(2)).then((code) => process.exit(code));
