import { defineConfig, devices } from '@playwright/test';
import dashboardHosts from './examples/dashboard/hosts.json' with { type: 'json' };

// Browser tests run against the production build (`npm run build` → dist/app),
// served by `vite preview`. Playwright cannot download browsers here, so we use
// Debian's Chromium (scripts/ensure-chromium.mjs installs it) or $CHROMIUM_PATH.
// LOUPE_E2E_PORT moves every server (the app, then one port per dashboard host) so two checkouts
// can run their browser tests at once; --strictPort makes a taken port fail loudly.
const PORT = Number(process.env.LOUPE_E2E_PORT ?? 4173);
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
    trace: 'retain-on-failure',
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
