/**
 * Pages read the same on a machine without Bengali or Chinese fonts. Chromium runs with a
 * fontconfig that offers only DejaVu (Latin, Greek, Cyrillic; Chromium aborts with no font at all),
 * checked with fc-list to hold no Bengali or Chinese face, so every Bengali or Chinese glyph on the
 * page comes from the fonts the app ships; text drawn in a family that does not exist shows the
 * missing-glyph box instead.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openContext, settled } from '../helpers/browser';
import { startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let browser: Browser;
let fontDir: string;
let env: NodeJS.ProcessEnv;
const LATIN_ONLY = '/usr/share/fonts/truetype/dejavu';

beforeAll(async () => {
  stack = await startStack({ listen: true });
  fontDir = await mkdtemp(join(tmpdir(), 'portal-nofonts-'));
  await writeFile(join(fontDir, 'fonts.conf'), `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>${LATIN_ONLY}</dir><cachedir>${join(fontDir, 'cache')}</cachedir></fontconfig>\n`);
  env = { ...process.env, FONTCONFIG_FILE: join(fontDir, 'fonts.conf'), FONTCONFIG_PATH: fontDir };
  browser = await launchChromium({ env });
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  if (fontDir) await rm(fontDir, { recursive: true, force: true });
});

/** A screenshot of `text` drawn at 40px in `family` (the page's own fonts when null). */
async function draw(page: Page, text: string, family: string | null): Promise<Buffer> {
  const handle = await page.evaluateHandle(
    ({ text, family }) => {
      const el = document.createElement('span');
      el.textContent = text;
      el.style.cssText = `position:fixed;top:0;left:0;z-index:9999;font-size:40px;line-height:1.6;background:#fff;color:#000;padding:4px;white-space:nowrap;${family ? `font-family:'${family}'` : ''}`;
      document.body.append(el);
      return el;
    },
    { text, family },
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const shot = await handle.asElement()!.screenshot();
  await handle.evaluate((el) => el.remove());
  return shot;
}

const SCRIPTS = {
  bn: { family: 'Noto Sans Bengali Variable', a: 'বাংলা', b: 'আবাসন', own: /[\u0980-\u09FF]/g, subset: /noto-sans-bengali-bengali-/ },
  zh: { family: 'Noto Sans SC Variable', a: '住房门户', b: '申请资格', own: /[\u4E00-\u9FFF]/g, subset: /noto-sans-sc-\d+-/ },
} as const;
/** Subsets for scripts no page of the portal writes: a page never needs them. */
const UNUSED = /noto-sans-(sc-)?(cyrillic|greek|devanagari|vietnamese)/;
/** How many numbered pieces the Chinese face is cut into in the build. */
const SC_PIECES = readdirSync(new URL('../../web/dist/assets/', import.meta.url)).filter((f) => /^noto-sans-sc-\d+-.*\.woff2$/.test(f)).length;

describe('shipped fonts', () => {
  it('runs Chromium on a machine with no Bengali or Chinese font', () => {
    const faces = (lang: string) => execFileSync('fc-list', [`:lang=${lang}`, 'family'], { env, encoding: 'utf8' }).trim();
    expect(execFileSync('fc-list', [':', 'family'], { env, encoding: 'utf8' })).toMatch(/DejaVu/);
    expect(faces('bn')).toBe('');
    expect(faces('zh-cn')).toBe('');
  });

  for (const [language, script] of Object.entries(SCRIPTS)) {
    it(`shows ${language} glyphs with no system font, loading only the subsets the page uses`, async () => {
      const { context, page } = await openContext(browser, stack.baseUrl, { language, label: `fonts-${language}` });
      const fonts: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('.woff2')) fonts.push(r.url());
      });
      await page.goto('/');
      await settled(page);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);

      // The page's own heading uses the shipped face for its script.
      const heading = ((await page.locator('h1').textContent()) ?? '').match(script.own)?.join('') ?? '';
      expect(heading, 'the heading is written in the script').not.toBe('');
      expect(await page.evaluate(({ family, heading }) => document.fonts.check(`40px "${family}"`, heading), { family: script.family, heading })).toBe(true);

      const shipped = await draw(page, script.a, null);
      const missing = await draw(page, script.a, 'No Such Font Anywhere');
      // Without a font every glyph is the same missing-glyph box: two different words of the same
      // length look alike. With the shipped font they differ, and differ from the boxes.
      const missingOther = await draw(page, script.b, 'No Such Font Anywhere');
      const shippedOther = await draw(page, script.b, null);
      expect(missing.equals(missingOther), 'the fallback draws boxes').toBe(true);
      expect(shipped.equals(missing), 'glyphs, not boxes').toBe(false);
      expect(shipped.equals(shippedOther), 'distinct glyphs').toBe(false);

      // Split by Unicode range: the page downloaded its script's subset, none for scripts it does not
      // show, and only a few of the Chinese face's pieces (the language menu names 中文 on every page).
      expect(fonts.some((u) => script.subset.test(u)), fonts.join('\n')).toBe(true);
      expect(fonts.filter((u) => UNUSED.test(u))).toEqual([]);
      expect(SC_PIECES).toBeGreaterThan(50);
      expect(fonts.filter((u) => /noto-sans-sc-\d+-/.test(u)).length, fonts.join('\n')).toBeLessThan(SC_PIECES / 3);
      await context.close();
    });
  }
});
