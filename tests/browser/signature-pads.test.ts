/**
 * Every signature pad of the portal (the account's signature, the lease-up income
 * certification and lease letter, the recertification TIC) draws where the pen goes, at two
 * viewport widths and device scale factors 1 and 2: a known stroke is drawn with the mouse and the
 * image that would be signed (the preview shows exactly it) is read back: its ink lies where the
 * pointer went, within a few pixels, and none of it is cut off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, storageFor, watchConsoleErrors, type SignedInStorage } from '../helpers/browser';
import { SIGNATURE_PNG_BASE64 } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string };

let stack: Stack;
let browser: Browser;
let applicantStorage: SignedInStorage;
let tenantStorage: SignedInStorage;
let ticApplication: string;
let leaseApplication: string;

/** Where the stroke turns, as fractions of the box; its extremes are mid-stroke, where the pen passes exactly. */
const STROKE: [number, number][] = [
  [0.3, 0.5],
  [0.1, 0.2],
  [0.5, 0.8],
  [0.9, 0.3],
  [0.7, 0.5],
];
const EXPECTED = { left: 0.1, top: 0.2, right: 0.9, bottom: 0.8 };
/** Pen half width (signature_pad's widest stroke is 2.5 px) plus the smoothing curve's overshoot at a turn. */
const TOLERANCE_PX = 5;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: Auth, payload?: object) =>
  stack.app.inject({ method, url, headers: { authorization: who.authorization }, ...(payload ? { payload } : {}) });

/** The demo applicant's application to `opportunityId`, taken to income certification with the TIC made. */
async function atIncomeCertification(applicant: Auth, manager: Auth, opportunityId: string): Promise<string> {
  const ok = async (response: Promise<{ statusCode: number; body: string }>) => {
    const r = await response;
    if (r.statusCode >= 300) throw new Error(`${r.statusCode}: ${r.body}`);
    return JSON.parse(r.body).data;
  };
  const managerAct = (id: string, action: string, body: object = {}) => ok(call('POST', `/api/LeaseUpApplication/updateleaseapplicationstatus/${id}/${action}`, manager, body));
  const id = (await ok(call('POST', '/api/LeaseUpApplication/apply', applicant, { opportunityId, householdSize: 2, householdIncome: 52_000, agreeToTerms: true }))).applicationId as string;
  await ok(call('POST', `/api/Household/submit-applicant-profile/${id}`, applicant));
  await managerAct(id, 'MarkAsComplete');
  const slot = new Date(Date.now() + 3 * 86_400_000).toISOString();
  await managerAct(id, 'ProceedToAppointmentScheduling', { slots: [slot] });
  await ok(call('POST', '/api/LeaseUpApplication/schedule-appointment', applicant, { applicationId: id, slot }));
  const units = (await ok(call('GET', `/api/LeaseUpApplication/offerable-units/${id}`, manager))).units as { id: string }[];
  const offered = await managerAct(id, 'OfferUnit', { unitIds: [units[0]!.id] });
  await ok(call('POST', '/api/LeaseUpApplication/unit-offer/respond', applicant, { applicationId: id, offerId: offered.offers[0].offerId, accept: true }));
  await managerAct(id, 'ProceedWithUnitOffer');
  await managerAct(id, 'GenerateIncomeCertification');
  return id;
}

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
  const [applicant, manager, tenant] = await Promise.all([signIn(stack.app, 'User'), signIn(stack.app, 'Manager'), signIn(stack.app, 'Tenant')]);
  [applicantStorage, tenantStorage] = await Promise.all([storageFor(stack.app, 'User'), storageFor(stack.app, 'Tenant')]);
  const rentals = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).where('kind', '=', 'rental').orderBy('name').execute();
  ticApplication = await atIncomeCertification(applicant, manager, rentals[0]!.id);
  // The second is signed by every signer and approved: its household signs the lease letter next.
  leaseApplication = await atIncomeCertification(applicant, manager, rentals[1]!.id);
  const detail = (await call('GET', `/api/LeaseUpApplication/getDetailsById/${leaseApplication}`, applicant)).json().data;
  for (const signer of detail.tic.signers as { id: string; isHead: boolean }[]) {
    const signed = await call('PUT', `/api/Document/applytenantsignaturetotic/${leaseApplication}`, applicant, { signatureBase64: SIGNATURE_PNG_BASE64, ...(signer.isHead ? {} : { memberId: signer.id }) });
    expect(signed.statusCode).toBe(200);
  }
  expect((await call('POST', `/api/LeaseUpApplication/updateleaseapplicationstatus/${leaseApplication}/ApproveIncomeCertification`, manager, {})).statusCode).toBe(200);
  // The tenant's recertification at signing: profile confirmed, documents in, TIC generated.
  const caseId = (await call('GET', '/api/TenantRecertificationStatus/status', tenant)).json().data.caseId;
  for (const [url, who] of [
    [`/api/TenantRecertificationStatus/${caseId}/ConfirmProfile`, tenant],
    [`/api/TenantRecertificationStatus/${caseId}/SubmitDocuments`, tenant],
    [`/api/TenantRecertificationStatus/manager/${caseId}/GenerateTIC`, manager],
  ] as const) expect((await call('POST', url, who, {})).statusCode).toBe(200);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** Draws the stroke on the pad with the mouse, then reads the signed image back from the preview. */
async function drawAndRead(page: Page, testId: string) {
  const canvas = page.getByTestId(testId);
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  const at = ([x, y]: [number, number]) => [box.x + x * box.width, box.y + y * box.height] as const;
  await page.mouse.move(...at(STROKE[0]!));
  await page.mouse.down();
  for (const point of STROKE.slice(1)) await page.mouse.move(...at(point), { steps: 12 });
  await page.mouse.up();
  const preview = page.getByTestId(`${testId}-preview`).locator('img');
  await preview.waitFor();
  const image = await preview.evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    let left = c.width, top = c.height, right = -1, bottom = -1;
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const i = (y * c.width + x) * 4;
        if (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200) {
          left = Math.min(left, x); right = Math.max(right, x + 1); top = Math.min(top, y); bottom = Math.max(bottom, y + 1);
        }
      }
    }
    return { width: c.width, height: c.height, ink: right < 0 ? null : { left, top, right, bottom } };
  });
  return { box, image };
}

/** The ink's box in CSS pixels of the pad, from the image's own pixels. */
function checkInk(label: string, box: { width: number; height: number }, image: Awaited<ReturnType<typeof drawAndRead>>['image'], scale: number) {
  // The image is the pad's backing store: CSS size × device pixel ratio, so nothing is stretched.
  expect(image.width, `${label}: image width`).toBe(Math.round(box.width * scale));
  expect(image.height, `${label}: image height`).toBe(Math.round(box.height * scale));
  expect(image.ink, `${label}: ink`).not.toBeNull();
  const ink = { left: image.ink!.left / scale, top: image.ink!.top / scale, right: image.ink!.right / scale, bottom: image.ink!.bottom / scale };
  const expected = { left: EXPECTED.left * box.width, top: EXPECTED.top * box.height, right: EXPECTED.right * box.width, bottom: EXPECTED.bottom * box.height };
  for (const side of ['left', 'top', 'right', 'bottom'] as const) {
    expect(Math.abs(ink[side] - expected[side]), `${label}: ink ${side} ${ink[side].toFixed(1)} vs pointer ${expected[side].toFixed(1)}`).toBeLessThanOrEqual(TOLERANCE_PX);
  }
  // Not clipped: the ink stops short of every edge of the image.
  expect(image.ink!.left > 0 && image.ink!.top > 0 && image.ink!.right < image.width && image.ink!.bottom < image.height, `${label}: clipped`).toBe(true);
}

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

describe('every signature pad draws where the pen goes', () => {
  for (const viewport of VIEWPORTS) {
    for (const scale of [1, 2]) {
      it(`at ${viewport.width} px wide, device scale factor ${scale}`, async () => {
        const open = async (storage: SignedInStorage) => {
          const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US', viewport, deviceScaleFactor: scale });
          await context.addInitScript((s) => {
            if (sessionStorage.getItem('portal-test-init')) return;
            sessionStorage.setItem('portal-test-init', '1');
            localStorage.setItem('user', s.user);
            localStorage.setItem('auth', s.auth);
          }, storage);
          const page = await context.newPage();
          page.setDefaultTimeout(30_000);
          return { context, page, errors: watchConsoleErrors(page) };
        };
        const label = `${viewport.width}px@${scale}x`;

        const applicant = await open(applicantStorage);
        await applicant.page.goto('/profile-setting');
        const account = await drawAndRead(applicant.page, 'account-signature');
        checkInk(`${label} account`, account.box, account.image, scale);

        for (const [id, action] of [
          [ticApplication, 'Sign the income certification (TIC)'],
          [leaseApplication, 'Sign the lease letter'],
        ] as const) {
          await applicant.page.goto(`/myApplications/${id}`);
          await applicant.page.getByRole('button', { name: action, exact: true }).click();
          const drawn = await drawAndRead(applicant.page, 'lease-up-signature');
          checkInk(`${label} ${action}`, drawn.box, drawn.image, scale);
          await applicant.page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
        }
        expect(applicant.errors).toEqual([]);
        await applicant.context.close();

        const tenant = await open(tenantStorage);
        await tenant.page.goto('/recertification');
        const recert = await drawAndRead(tenant.page, 'signature-canvas');
        checkInk(`${label} recertification`, recert.box, recert.image, scale);
        expect(tenant.errors).toEqual([]);
        await tenant.context.close();
      }, 120_000);
    }
  }

  it('a stroke that leaves the box is refused, not signed cut off', async () => {
    const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US', viewport: VIEWPORTS[0] });
    await context.addInitScript((s) => {
      localStorage.setItem('user', s.user);
      localStorage.setItem('auth', s.auth);
    }, applicantStorage);
    const page = await context.newPage();
    await page.goto('/profile-setting');
    const canvas = page.getByTestId('account-signature');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + box.height + 40, { steps: 12 });
    await page.mouse.up();
    await page.getByText('Part of your signature is outside the box.').waitFor();
    expect(await page.getByTestId('account-signature-preview').count()).toBe(0);
    await context.close();
  }, 60_000);
});
