/**
 * /play-video. A resident opens the how-to videos from the dashboard, plays one by
 * keyboard, turns on the Bengali captions and reads a caption cue (TextTrack API); the transcript
 * is below; axe finds no serious or critical violation. The training page opens them too, and the
 * page needs no sign-in.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, storageFor, watchConsoleErrors } from '../helpers/browser';
import { startStack, type Stack } from '../helpers/stack';

let browser: Browser;
let stack: Stack;

const steps = (language: string, id: string) =>
  Object.values((JSON.parse(readFileSync(new URL(`../../web/src/i18n/locales/${language}/training.json`, import.meta.url), 'utf8')) as { videos: { items: Record<string, { steps: Record<string, string> }> } }).videos.items[id]!.steps);

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('/play-video', () => {
  it('opened from the dashboard: plays by keyboard, shows a Bengali caption cue, has the transcript and no serious axe violation', async () => {
    const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Tenant'), language: 'en', label: 'play-video', bypassCSP: true });
    const errors = watchConsoleErrors(page);
    try {
      await page.goto('/dashboard');
      await settled(page);
      // With no feed configured (the test stack, like `npm start`) the dashboard shows no feed card
      // and no warning. The profile line comes from the same answer and renders with the cards.
      await page.getByText(/Your profile is \d+% complete/).waitFor();
      expect(await page.getByTestId('feed-cards').count()).toBe(0);
      expect(await page.getByText('not connected to its source').count()).toBe(0);
      await page.getByRole('link', { name: 'Watch the how-to videos' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/play-video');
      await page.getByRole('heading', { level: 2, name: 'Getting started' }).waitFor();
      expect(await page.getByTestId('video-transcript').locator('li').allInnerTexts()).toEqual(steps('en', 'gettingStarted'));

      // Another video, chosen by keyboard from the list.
      await page.getByRole('link', { name: 'Recertification', exact: true }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.url()).toContain('video=recertification');
      const video = page.getByTestId('how-to-video');
      await expect.poll(() => video.getAttribute('data-video')).toBe('recertification');
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
      expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(5);

      // Four caption tracks, one per language, English (the page's language) on by default.
      expect(await video.evaluate((v: HTMLVideoElement) => [...v.textTracks].map((t) => [t.language, t.kind, t.label]))).toEqual([
        ['en', 'captions', 'English'],
        ['es', 'captions', 'Español'],
        ['zh', 'captions', '中文（简体）'],
        ['bn', 'captions', 'বাংলা'],
      ]);

      // Played by keyboard: the native player takes Space when focused.
      await video.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0), { timeout: 10_000 }).toBe(true);

      // Bengali captions on; the cue showing is the Bengali text of the step being shown.
      await video.evaluate((v: HTMLVideoElement) => {
        for (const track of v.textTracks) track.mode = track.language === 'bn' ? 'showing' : 'disabled';
      });
      const activeBengaliCue = () =>
        video.evaluate((v: HTMLVideoElement) => {
          const bn = [...v.textTracks].find((t) => t.language === 'bn')!;
          return (bn.activeCues?.[0] as VTTCue | undefined)?.text ?? '';
        });
      await expect.poll(activeBengaliCue, { timeout: 10_000 }).not.toBe('');
      expect(steps('bn', 'recertification')).toContain(await activeBengaliCue());

      // Paused again by keyboard.
      await video.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);

      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the training page links to each topic video; signed out the page still plays, in Spanish', async () => {
    const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Tenant'), language: 'en', label: 'play-video-training' });
    try {
      await page.goto('/training');
      await settled(page);
      await page.locator('summary', { hasText: 'Signing electronically' }).click();
      await page.getByRole('link', { name: 'Watch the video: Signing electronically' }).click();
      await expect.poll(() => page.url()).toContain('/play-video?video=eSigning');
      await page.getByRole('heading', { level: 2, name: 'Signing electronically' }).waitFor();
    } finally {
      await context.close();
    }
    const out = await openContext(browser, stack.baseUrl, { language: 'es', label: 'play-video-out' });
    try {
      await out.page.goto('/play-video?video=uploadingDocuments');
      await out.page.getByRole('heading', { level: 2, name: 'Subir documentos' }).waitFor();
      expect(await out.page.getByTestId('video-transcript').locator('li').allInnerTexts()).toEqual(steps('es', 'uploadingDocuments'));
      // The reader's language's captions are the default track.
      expect(await out.page.getByTestId('how-to-video').evaluate((v: HTMLVideoElement) => [...v.querySelectorAll('track')].filter((t) => t.default).map((t) => t.srclang))).toEqual(['es']);
      const vtt = await out.page.request.get('/videos/uploadingDocuments.es.vtt');
      expect(vtt.status()).toBe(200);
      expect(await vtt.text()).toMatch(/^WEBVTT\n/);
    } finally {
      await out.context.close();
    }
  });
});
