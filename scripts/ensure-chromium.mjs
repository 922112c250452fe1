#!/usr/bin/env node
// Make sure a Chromium for the browser tests exists.
//
// Playwright cannot download its own browsers in this environment, so the e2e tests use
// Debian's `chromium` package (/usr/bin/chromium) or whatever $CHROMIUM_PATH points at.
//   - found            → exit 0
//   - missing, root    → apt-get update && apt-get install -y chromium, then verify
//   - missing, no root → print what to run, exit 1
import { ensureAptBinary } from './apt-package.mjs';

ensureAptBinary({
  tag: 'ensure-chromium',
  defaultPath: '/usr/bin/chromium',
  envVar: 'CHROMIUM_PATH',
  binaryKind: 'a Chromium/Chrome binary',
  packageName: 'chromium',
  installOptions: [],
  versionArgs: ['--version', '--no-sandbox'],
  versionText: (r) => r.stdout,
  missingMessage: () =>
    `ensure-chromium: Chromium not found at /usr/bin/chromium; the browser tests need it.\n` +
    `  Install Debian's Chromium:\n` +
    `    sudo apt-get update && sudo apt-get install -y chromium\n` +
    `  or point at an existing Chromium/Chrome binary:\n` +
    `    CHROMIUM_PATH=/path/to/chromium npm run test:e2e`,
  missingExitCode: 1,
});
