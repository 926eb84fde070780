#!/usr/bin/env node
// The installed `mm` command: runs the TypeScript sources through tsx, like the services.
require('tsx/cjs');
require('../src/main.ts')
  .main(process.argv.slice(2))
  .then((code) => process.exit(code));
