#!/usr/bin/env node
// Make sure an nginx exists for the browser test that serves a team's index from a plain web
// server (e2e/library-nginx.spec.ts). The test runs it as an unprivileged process with its own
// config in a temp folder, on a free port; nothing of the system's nginx set-up is used.
//   - found (Debian's /usr/sbin/nginx, or $NGINX_PATH) → exit 0
//   - missing, root    → apt-get update && apt-get install -y nginx, then verify
//   - missing, no root → print what to run; exit 1 under CI (the test must run there), else 0 (the test skips, saying so)
import { ensureAptBinary } from './apt-package.mjs';

ensureAptBinary({
  tag: 'ensure-nginx',
  defaultPath: '/usr/sbin/nginx',
  envVar: 'NGINX_PATH',
  binaryKind: 'an nginx binary',
  packageName: 'nginx',
  installOptions: ['--no-install-recommends'],
  versionArgs: ['-v'],
  // nginx prints its version on stderr.
  versionText: (r) => `${r.stderr}${r.stdout}`,
  missingMessage: () =>
    `ensure-nginx: nginx not found at /usr/sbin/nginx; the browser test of a team's index on a plain web server needs it` +
    `${process.env.CI ? '' : ' (without it that test is skipped)'}.\n` +
    `  Install Debian's nginx (the test runs its own unprivileged nginx; the service need not run):\n` +
    `    sudo apt-get update && sudo apt-get install -y nginx\n` +
    `  or point at an existing nginx binary:\n` +
    `    NGINX_PATH=/path/to/nginx npm run test:e2e`,
  missingExitCode: process.env.CI ? 1 : 0,
});
