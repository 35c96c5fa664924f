import { expect } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';

/**
 * Keyboard-only journeys. Every pointer event the page receives is counted (kept in
 * session storage across page loads), so a test can show that it used no mouse; `tabTo` reaches an
 * element with Tab alone, checking at every stop that focus is visible and moves forward in
 * document order (no positive tabindex, no jumps back) except when it wraps round.
 */
export async function countPointerEvents(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'touchstart', 'dblclick', 'contextmenu']) {
      addEventListener(type, () => sessionStorage.setItem('pointer-events', String(Number(sessionStorage.getItem('pointer-events') ?? 0) + 1)), true);
    }
  });
}

export async function pointerEvents(page: Page): Promise<number> {
  return page.evaluate(() => Number(sessionStorage.getItem('pointer-events') ?? 0));
}

interface FocusStop {
  left: boolean;
  visible: boolean;
  forward: boolean;
  describe: string;
}

/** Where focus is now, whether it shows, and whether it moved forward from the last stop. */
function focusStop(): FocusStop {
  const w = window as unknown as { __lastFocus?: Element | null };
  const el = document.activeElement;
  if (!el || el === document.body) {
    // Focus left the page for the browser's own controls (after the last element): a wrap follows.
    w.__lastFocus = null;
    return { left: true, visible: true, forward: true, describe: 'body' };
  }
  const prev = w.__lastFocus;
  w.__lastFocus = el;
  const scope = el.closest('dialog[open]') ?? document;
  const tabbable = [...scope.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]')].filter((e) => e.tabIndex >= 0 && e.getClientRects().length > 0);
  const wrapped = tabbable[0] === el;
  const forward = !prev || !prev.isConnected || prev === el || wrapped || Boolean(prev.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const style = getComputedStyle(el);
  // Chromium's date and time fields have a last Tab stop on their own picker button, inside the
  // browser's closed shadow tree: the field then does not match :focus and the browser draws the
  // ring on that button itself, out of reach of page styles.
  const pickerButton = el instanceof HTMLInputElement && ['date', 'datetime-local', 'time', 'month'].includes(el.type) && !el.matches(':focus');
  const visible = pickerButton || (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || (style.boxShadow !== '' && style.boxShadow !== 'none');
  const name = (el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '').trim().slice(0, 50);
  const how = visible ? '' : ` [outline ${style.outlineStyle} ${style.outlineWidth}, shadow ${style.boxShadow}, :focus ${el.matches(':focus')}]`;
  return { left: false, visible, forward, describe: `${el.tagName.toLowerCase()} "${name}"${how}` };
}

/** Presses Tab until `target` has focus; fails if it never does or a stop is invisible or out of order. */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  await target.waitFor();
  // Already there (a dialog focuses its first field on opening): a Tab would move on past it.
  if (await target.evaluate((el) => el === document.activeElement)) return;
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(focusStop);
    seen.push(stop.describe);
    expect(stop.visible, `focus visible on ${stop.describe}`).toBe(true);
    expect(stop.forward, `focus moved forward to ${stop.describe} (after ${seen.slice(-3, -1).join(', ')})`).toBe(true);
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached the target; stops: ${seen.join(' → ')}`);
}

/** Tab and Enter. */
export async function activate(page: Page, target: Locator): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('Enter');
}

/**
 * An open modal keeps focus: every Tab stop is inside the dialog (or, past its last element, the
 * browser's own controls, never the page behind), and Tab comes back round to the dialog.
 */
export async function expectFocusTrapped(page: Page, dialog: Locator): Promise<void> {
  await dialog.waitFor();
  expect(await dialog.evaluate((d) => d.contains(document.activeElement)), 'focus moved into the dialog').toBe(true);
  const count = await dialog.evaluate((d) => [...d.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]')].filter((e) => e.tabIndex >= 0).length);
  let returned = 0;
  for (let i = 0; i < count + 3; i++) {
    await page.keyboard.press('Tab');
    const where = await dialog.evaluate((d) => (d.contains(document.activeElement) ? 'inside' : !document.activeElement || document.activeElement === document.body ? 'browser' : `outside: ${document.activeElement.outerHTML.slice(0, 80)}`));
    expect(where === 'inside' || where === 'browser', where).toBe(true);
    if (where === 'inside') returned++;
  }
  expect(returned).toBeGreaterThanOrEqual(count);
}

/** The element that has focus is `target`. */
export async function expectFocused(target: Locator, what: string): Promise<void> {
  expect(await target.evaluate((el) => el === document.activeElement), what).toBe(true);
}
