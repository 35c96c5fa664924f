/**
 * `npm run videos:record`: records the how-to videos of /play-video from the app itself,
 * so they show the real screens. Drives Debian's Chromium through the running portal as the demo
 * tenant, takes a screenshot at each step, and assembles them with ffmpeg into small VP9 webm files
 * (a few frames per second; each step is held while its caption shows). The captions (WebVTT, one
 * file per language) are written from the same texts as the page's transcript
 * (web/src/i18n/locales/<language>/training.json, `videos.items.<id>.steps`), timed to the steps.
 *
 * Needs, at record time only: the portal running with its demo data (`npm start`), /usr/bin/chromium
 * and ffmpeg (Debian: `apt-get install ffmpeg`). Nothing else (tests, CI, `npm start`) needs ffmpeg:
 * the produced files are committed under web/public/videos/ and shipped by the web build.
 *
 *   npm run videos:record -- [--base http://localhost:3000] [--only gettingStarted]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import demo from '../demo-accounts.json' with { type: 'json' };
import { LANGUAGES } from '../../domain/account';
import { VIDEOS, type VideoId } from '../../domain/videos';

const OUT = resolve('web/public/videos');
const SIZE = { width: 1280, height: 720 };

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const BASE = arg('base') ?? process.env.PORTAL_URL ?? 'http://localhost:3000';
const ONLY = arg('only');

type Shot = () => Promise<void>;
interface Step {
  /** The caption's key under videos.items.<id>.steps. */
  key: string;
  seconds: number;
  /** Brings the screen to this step; `shot` keeps an intermediate frame (the step ends with one anyway). */
  act(page: Page, shot: Shot): Promise<void>;
}

const tenant = demo.accounts.find((a) => a.role === 'Tenant')!;

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded');
  // The page's own loading indicators (the page, then its data), then a moment for fonts and transitions.
  await page.waitForTimeout(500);
  await page.locator('.loading, .page-loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(300);
  await page.locator('.loading, .page-loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(500);
}

async function go(page: Page, path: string): Promise<void> {
  await page.goto(`${BASE}${path}`);
  await settle(page);
}

async function signIn(page: Page): Promise<void> {
  await go(page, '/login');
  await page.getByLabel('Username or email').fill(tenant.username);
  await page.getByLabel('Password', { exact: true }).fill(tenant.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
  await settle(page);
}

async function scrollTo(page: Page, selector: string): Promise<void> {
  await page.locator(selector).first().scrollIntoViewIfNeeded().catch(() => undefined);
  await page.waitForTimeout(400);
}

async function focusMenu(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name, exact: true }).first().focus();
  await page.waitForTimeout(300);
}

const SCRIPTS: Record<VideoId, { signedIn: boolean; steps: Step[] }> = {
  gettingStarted: {
    signedIn: false,
    steps: [
      { key: 's1', seconds: 4, act: async (page) => go(page, '/') },
      {
        key: 's2',
        seconds: 5,
        act: async (page, shot) => {
          await go(page, '/login');
          await shot();
          await page.getByLabel('Username or email').fill(tenant.username);
          await page.getByLabel('Password', { exact: true }).fill(tenant.password);
          await shot();
          await page.getByRole('button', { name: 'Log in', exact: true }).focus();
        },
      },
      {
        key: 's3',
        seconds: 5,
        act: async (page) => {
          await page.getByRole('button', { name: 'Log in', exact: true }).click();
          await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
          await settle(page);
        },
      },
      { key: 's4', seconds: 5, act: async (page) => scrollTo(page, '#feeds-title') },
      { key: 's5', seconds: 4, act: async (page) => go(page, '/profile-setting') },
    ],
  },
  householdProfile: {
    signedIn: true,
    steps: [
      { key: 's1', seconds: 4, act: async (page) => focusMenu(page, 'Profile') },
      { key: 's2', seconds: 5, act: async (page) => go(page, '/profile') },
      { key: 's3', seconds: 6, act: async (page, shot) => { await page.mouse.wheel(0, 700); await page.waitForTimeout(400); await shot(); await page.mouse.wheel(0, 900); await page.waitForTimeout(400); } },
    ],
  },
  uploadingDocuments: {
    signedIn: true,
    steps: [
      { key: 's1', seconds: 4, act: async (page) => focusMenu(page, 'My Documents') },
      { key: 's2', seconds: 5, act: async (page) => go(page, '/myDocument') },
      { key: 's3', seconds: 6, act: async (page) => { await page.mouse.wheel(0, 600); await page.waitForTimeout(400); } },
    ],
  },
  recertification: {
    signedIn: true,
    steps: [
      { key: 's1', seconds: 5, act: async (page) => scrollTo(page, '#recert-status') },
      { key: 's2', seconds: 5, act: async (page) => go(page, '/recertification') },
      { key: 's3', seconds: 6, act: async (page) => { await page.mouse.wheel(0, 600); await page.waitForTimeout(400); } },
    ],
  },
  eSigning: {
    signedIn: true,
    steps: [
      { key: 's1', seconds: 4, act: async (page) => go(page, '/profile-setting') },
      { key: 's2', seconds: 5, act: async (page) => scrollTo(page, 'canvas, [data-testid*="signature"]') },
      { key: 's3', seconds: 6, act: async (page) => go(page, '/recertification') },
    ],
  },
};

/** The caption texts of a video in one language (the transcript's). */
function stepTexts(language: string, id: VideoId): Record<string, string> {
  const training = JSON.parse(readFileSync(resolve(`web/src/i18n/locales/${language}/training.json`), 'utf8')) as { videos: { items: Record<string, { steps: Record<string, string> }> } };
  return training.videos.items[id]!.steps;
}

const stamp = (seconds: number) => {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
};

export function webVtt(cues: { start: number; end: number; text: string }[]): string {
  return `WEBVTT\n\n${cues.map((c, i) => `${i + 1}\n${stamp(c.start)} --> ${stamp(c.end)}\n${c.text}\n`).join('\n')}`;
}

async function record(id: VideoId): Promise<void> {
  const script = SCRIPTS[id];
  const work = mkdtempSync(join(tmpdir(), `portal-video-${id}-`));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars'] });
  try {
    const context = await browser.newContext({ viewport: SIZE, deviceScaleFactor: 1, locale: 'en-US' });
    await context.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    if (script.signedIn) await signIn(page);

    const frames: { file: string; seconds: number }[] = [];
    const cues: { key: string; start: number; end: number }[] = [];
    let clock = 0;
    for (const step of script.steps) {
      const mine: string[] = [];
      const shot = async () => {
        const file = join(work, `f${String(frames.length + mine.length).padStart(3, '0')}.png`);
        await page.screenshot({ path: file });
        mine.push(file);
      };
      await step.act(page, shot);
      await shot();
      for (const file of mine) frames.push({ file, seconds: step.seconds / mine.length });
      cues.push({ key: step.key, start: clock, end: clock + step.seconds });
      clock += step.seconds;
    }

    // ffmpeg's concat list: each frame held for its time (the last one listed twice, as concat needs).
    const list = [...frames.map((f) => `file '${f.file}'\nduration ${f.seconds.toFixed(3)}`), `file '${frames.at(-1)!.file}'`].join('\n');
    writeFileSync(join(work, 'list.txt'), list);
    const out = join(OUT, `${id}.webm`);
    execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-f', 'concat', '-safe', '0', '-i', join(work, 'list.txt'), '-vf', `fps=4,scale=${SIZE.width}:${SIZE.height},format=yuv420p`, '-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '40', '-row-mt', '1', '-deadline', 'good', '-cpu-used', '4', '-an', out], { stdio: 'inherit' });

    for (const language of LANGUAGES) {
      const texts = stepTexts(language, id);
      writeFileSync(join(OUT, `${id}.${language}.vtt`), webVtt(cues.map((c) => ({ start: c.start, end: c.end, text: texts[c.key]! }))));
    }
    process.stdout.write(`${id}: ${clock} s, ${frames.length} frames, ${Math.round(statSync(out).size / 1024)} KiB\n`);
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}

for (const id of VIDEOS) {
  if (ONLY && ONLY !== id) continue;
  await record(id);
}
