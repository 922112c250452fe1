import { createServer } from 'node:net';
import { defineConfig, devices } from '@playwright/test';
import dashboardHosts from './examples/dashboard/hosts.json' with { type: 'json' };

// Browser tests run against the production build (`npm run build` → dist/app),
// served by `vite preview`. Playwright cannot download browsers here, so we use
// Debian's Chromium (scripts/ensure-chromium.mjs installs it) or $CHROMIUM_PATH.
// The servers use consecutive ports: the app, then one per dashboard host. LOUPE_E2E_PORT says
// where they start; without it the runner picks a free run of ports, so two checkouts (or two runs)
// never meet. Either way --strictPort makes a port taken in between fail loudly, and no test ever
// reuses a server it did not start.
const SERVERS = 1 + Object.keys(dashboardHosts).length;

/** Whether nothing listens on `port` on localhost (IPv4 and IPv6, as `localhost` may be either). */
async function isFree(port: number): Promise<boolean> {
  for (const host of ['127.0.0.1', '::1']) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT'));
      probe.listen(port, host, () => probe.close(() => resolve(true)));
    });
    if (!free) return false;
  }
  return true;
}

/** The first port of SERVERS free consecutive ports, from the system's choice of a free one. */
async function freePorts(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const first = await new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    if (first + SERVERS > 65535) continue;
    const ports = Array.from({ length: SERVERS }, (_, index) => first + index);
    if ((await Promise.all(ports.map(isFree))).every(Boolean)) return first;
  }
  throw new Error(`no ${SERVERS} consecutive free ports found; set LOUPE_E2E_PORT`);
}

// The config is read again in each worker process: the runner's choice goes to them in the
// environment they inherit, so every process agrees on the ports.
process.env.LOUPE_E2E_PORT ??= String(await freePorts());
const PORT = Number(process.env.LOUPE_E2E_PORT);
/** The embedding example as host apps on React 18.3 and 19 (npm run build:hosts), each on its port. */
export const DASHBOARD_HOSTS = Object.fromEntries(
  Object.entries(dashboardHosts).map(([name, host], index) => [name, { ...host, port: PORT + 1 + index }]),
);
const CI = !!process.env.CI;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  workers: 2,
  reporter: 'list',
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${PORT}`,
    headless: true,
    // Recorded only when a test is run again after failing (CI retries once): recording every test
    // to keep a failure's trace cost a third of the suite's time on the 2-core machine (the
    // fixtures' 45 tests: 3.0 min recorded, 1.9 min not). `--trace on` records one run locally.
    trace: 'on-first-retry',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-quic',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: `npx vite preview --outDir dist/app --port ${PORT} --strictPort`,
      url: `http://localhost:${PORT}`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    // The embedding example as host apps built from the packed library (npm run build:lib, build:cli, build:hosts).
    ...Object.entries(DASHBOARD_HOSTS).map(([name, host]) => ({
      command: `npx vite preview --config dist/hosts/${name}/vite.config.ts --port ${host.port} --strictPort`,
      url: `http://localhost:${host.port}`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    })),
  ],
});
