// The embedding example (examples/dashboard) as two host apps would run it, one on React 18.3 and
// one on React 19, each with Loupe installed from the packed tarball (npm run build:hosts): two
// viewers side by side, inside a host page with its own header and deliberately broad styles.
import type { Page } from '@playwright/test';
import { DASHBOARD_HOSTS } from '../playwright.config';
import { expect, expectedCalls, fixture, test } from './helpers';

async function hostStyles(page: Page) {
  return page.evaluate(() => {
    const pick = (el: Element | null) => {
      if (!el) return null;
      const cs = getComputedStyle(el);
      return [cs.fontFamily, cs.fontSize, cs.color, cs.backgroundColor, cs.borderTopStyle, cs.letterSpacing, cs.margin, cs.padding].join(' | ');
    };
    return {
      body: pick(document.body),
      h1: pick(document.querySelector('h1')),
      button: pick(document.querySelector('[data-testid="host-button"]')),
      header: pick(document.querySelector('.host-header')),
    };
  });
}

/** The page's uncaught errors; `orPageError` ends a wait as soon as one happens, with its message. */
function watchPageErrors(page: Page) {
  const errors: string[] = [];
  let reject: (error: Error) => void = () => {};
  const thrown = new Promise<never>((_, onError) => (reject = onError));
  thrown.catch(() => {});
  page.on('pageerror', (error) => {
    errors.push(String(error));
    reject(error);
  });
  return { errors, orPageError: <T>(wait: Promise<T>) => Promise.race([thrown, wait]) };
}

for (const [name, host] of Object.entries(DASHBOARD_HOSTS)) {
  test(`${name} host: two viewers render their own sessions, keep their own selection, and leave the host page as it was`, async ({ page }) => {
    const url = `http://localhost:${host.port}/`;
    const { errors, orPageError } = watchPageErrors(page);

    // The host alone first: its elements' computed styles without any viewer on the page.
    await page.goto(`${url}?viewers=0`);
    const before = await hostStyles(page);

    await page.goto(url);
    // The page runs the React its host installed, and only that copy (the repository's is 19).
    await expect(page.locator('html')).toHaveAttribute('data-react-version', host.react);
    const grok = page.locator('[data-panel="grok"]');
    const gemini = page.locator('[data-panel="gemini"]');
    for (const panel of [grok, gemini]) {
      await orPageError(expect(panel.locator('[data-load-state]').first()).toHaveAttribute('data-load-state', 'done', { timeout: 30_000 }));
    }

    // Each renders its own calls, and only its own.
    const grokCalls = await expectedCalls(fixture('grok/esc-interrupt.updates.jsonl'));
    const geminiCalls = await expectedCalls(fixture('acp/gemini-cli-0.61.0_scripted-model_live-turn.jsonl'));
    for (const call of grokCalls) {
      await expect(grok.locator(`[data-call-id="${call.id}"]`)).toContainText(call.label);
      await expect(gemini.locator(`[data-call-id="${call.id}"]`)).toHaveCount(0);
    }
    for (const call of geminiCalls) {
      await expect(gemini.locator(`[data-call-id="${call.id}"]`)).toContainText(call.label);
      await expect(grok.locator(`[data-call-id="${call.id}"]`)).toHaveCount(0);
    }
    await expect(grok.locator('[data-call-id]').first()).toContainText('sleep 45');

    // A selection in one does not affect the other.
    const first = geminiCalls[0]!;
    await gemini.locator(`[data-call-id="${first.id}"] button[aria-expanded]`).first().click();
    await expect(page.getByTestId('selected-gemini')).toHaveText(`${first.label} ${first.id}`);
    await expect(page.getByTestId('selected-grok')).toHaveText('none');
    await expect(grok.locator('[data-call-id][data-open]')).toHaveCount(0);
    await expect(gemini.locator(`[data-call-id="${first.id}"]`)).toHaveAttribute('data-open', 'true');

    // Nothing leaked out: the host's elements look as they did without the viewers.
    expect(await hostStyles(page)).toEqual(before);
    // Nothing leaked in: the host's broad `button` rule (hot pink, dashed) does not restyle the viewer's buttons.
    const rowButton = await gemini.locator('[data-call-id] button[aria-expanded]').first().evaluate((el) => {
      const cs = getComputedStyle(el);
      return { background: cs.backgroundColor, border: cs.borderTopStyle };
    });
    expect(rowButton.background).not.toBe('rgb(255, 105, 180)');
    expect(rowButton.border).not.toBe('dashed');
    expect(errors).toEqual([]);
  });
}
