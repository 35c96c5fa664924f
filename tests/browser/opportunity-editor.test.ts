/**
 * The manager's opportunity editor in Chromium against the real stack. The form
 * refuses what the shared schema refuses (messages next to the fields), previews the public page,
 * saves an opportunity with three units and two AMI bands, which, once published, reads the same on
 * the public page; editing it brings the same values back. The landing page offers to create
 * an account and says how the lottery works; the public detail offers the paper application in four
 * languages and says where to mail it; the list has a sort control.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, storageFor, toastContrastViolations, watchConsoleErrors } from '../helpers/browser';
import { signIn, startStack, type Stack } from '../helpers/stack';

const NAME = 'Editor Gardens';

describe('the opportunity editor in the browser', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startStack({ listen: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function fillUnit(group: Locator, values: { number: string; bedrooms: string; rent: string; ami: string; mobility?: boolean }) {
    await group.getByLabel('Unit number').fill(values.number);
    await group.getByLabel('Bedrooms').selectOption({ label: values.bedrooms });
    await group.getByLabel('Monthly rent (US dollars)').fill(values.rent);
    await group.getByLabel('AMI band (%)').fill(values.ami);
    if (values.mobility) await group.getByLabel('Mobility (wheelchair accessible)').check();
  }

  it('creates an opportunity with three units and two AMI bands, checked and previewed, and it reads the same on the public page', async () => {
    ({ page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Manager'), label: 'opportunity-editor', bypassCSP: true }));
    const consoleErrors = watchConsoleErrors(page);
    await page.goto('/manager/opportunities');
    await page.getByRole('link', { name: 'Create an opportunity' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create an opportunity' }).waitFor();

    // Saving an empty form: the spec's messages beside the fields, nothing saved.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/Please correct the \d+ fields marked below/);
    const name = page.getByLabel('Name', { exact: true });
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent)).toBe('Name is required');
    const unit1 = page.getByRole('group', { name: 'Unit 1' });
    expect(await unit1.locator('.field-error').allTextContents()).toEqual(['Unit number is required', 'Required', 'Required']);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await name.fill(NAME);
    await page.getByLabel('Building name').fill('Editor Gardens North');
    await page.getByLabel('Street address').fill('12 Editor Ave, Bronx, NY 10451');
    await page.getByLabel('Mailing address for paper applications').fill('Editor Gardens Lottery\nPO Box 42\nBronx, NY 10451');
    await page.getByLabel('Amenities').fill('Laundry room, Elevator');
    await fillUnit(unit1, { number: '1A', bedrooms: 'Studio', rent: '950', ami: '50', mobility: true });
    await page.getByRole('button', { name: 'Add a unit' }).click();
    await fillUnit(page.getByRole('group', { name: 'Unit 2' }), { number: '2B', bedrooms: '1 bedroom', rent: '1,150', ami: '60' });
    await page.getByRole('button', { name: 'Add a unit' }).click();
    await fillUnit(page.getByRole('group', { name: 'Unit 3' }), { number: '2B', bedrooms: '2 bedrooms', rent: '1400', ami: '60' });

    for (const [n, ami, layout, rent] of [
      [1, '50', 'Studio', '950'],
      [2, '60', '1 bedroom', '1150'],
    ] as const) {
      await page.getByRole('button', { name: 'Add an AMI band' }).click();
      const band = page.getByRole('group', { name: `AMI band ${n}` });
      await band.getByLabel('AMI band (%)').fill(ami);
      await band.getByLabel('Layout').selectOption({ label: layout });
      await band.getByLabel('Monthly rent (US dollars)').fill(rent);
    }
    await page.getByRole('button', { name: 'Add an income range' }).click();
    const range = page.getByRole('group', { name: 'Income range 1' });
    await range.getByLabel('Household size (people)').fill('2');
    await range.getByLabel('Minimum yearly income (US dollars)').fill('60000');
    await range.getByLabel('Maximum yearly income (US dollars)').fill('40000');
    await page.getByLabel('Application deadline (lottery end date)').fill('2099-06-30');

    // A repeated unit number and an income range upside down are refused by the shared schema.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('group', { name: 'Unit 3' }).locator('.field-error').allTextContents()).toEqual(['Each unit number may appear only once']);
    expect(await range.locator('.field-error').allTextContents()).toEqual(['Minimum income must not exceed maximum income']);
    await page.getByRole('group', { name: 'Unit 3' }).getByLabel('Unit number').fill('3C');
    await range.getByLabel('Maximum yearly income (US dollars)').fill('90000');

    // The preview reads as the public page will.
    await page.getByRole('button', { name: 'Preview the public page' }).click();
    const preview = page.getByRole('region', { name: 'Preview of the public page' });
    await preview.getByRole('heading', { name: NAME }).waitFor();
    expect(await preview.locator('#units-heading + .table-scroll tbody tr').count()).toBe(3);
    expect(await preview.locator('#requirements-heading ~ .table-scroll tbody tr').count()).toBe(2);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back to the form' }).click();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL('**/manager/opportunities');
    await page.getByText('The opportunity was saved.').waitFor();
    expect(await toastContrastViolations(page)).toEqual([]);
    const card = page.locator('.card', { has: page.getByRole('heading', { name: NAME }) });
    await card.waitFor();
    expect(await card.textContent()).toContain('3 units');
    await card.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => card.textContent()).toContain('Published');

    const saved = await stack.db.selectFrom('opportunities').select(['id', 'mailing_address']).where('name', '=', NAME).executeTakeFirstOrThrow();
    expect(saved.mailing_address).toBe('Editor Gardens Lottery\nPO Box 42\nBronx, NY 10451');

    // The public page, signed out.
    const { page: visitor } = await openContext(browser, stack.baseUrl, { label: 'opportunity-editor-public' });
    await visitor.goto('/public/opportunities');
    await visitor.getByRole('heading', { name: NAME }).waitFor();
    await visitor.goto(`/public/opportunity/${saved.id}`);
    await visitor.getByRole('heading', { level: 1, name: NAME }).waitFor();
    const unitRows = visitor.locator('#units-heading + .table-scroll tbody tr');
    await expect.poll(() => unitRows.count()).toBe(3);
    expect((await unitRows.allTextContents()).map((r) => r.replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/^1A.*Studio.*Mobility.*\$950.*50%/),
      expect.stringMatching(/^2B.*1 bedroom.*\$1,150.*60%/),
      expect.stringMatching(/^3C.*2 bedrooms.*\$1,400.*60%/),
    ]);
    expect(await visitor.locator('#requirements-heading ~ .table-scroll tbody tr').count()).toBe(2);
    expect(await visitor.locator('#income-heading + .table-scroll tbody tr').allTextContents()).toEqual([expect.stringMatching(/2.*\$60,000.*\$90,000/)]);

    // Editing brings the saved values back.
    await card.getByRole('link', { name: `Edit ${NAME}` }).click();
    await page.getByRole('heading', { level: 1, name: `Edit ${NAME}` }).waitFor();
    expect(await page.getByRole('group', { name: 'Unit 3' }).getByLabel('Unit number').inputValue()).toBe('3C');
    expect(await page.getByRole('group', { name: 'AMI band 2' }).getByLabel('Monthly rent (US dollars)').inputValue()).toBe('1150');
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it('landing page: create an account and how the lottery works; detail: paper application in four languages and apply by mail; list: sort control', async () => {
    const manager = await signIn(stack.app, 'Manager');
    const headers = { authorization: manager.authorization };
    const make = async (name: string, lotteryEndDate: string, mailingAddress: string) => {
      const created = await stack.app.inject({
        method: 'POST',
        url: '/api/Opportunity/manage',
        headers,
        payload: { name, kind: 'rental', address: '5 Sort St, Queens, NY 11101', mailingAddress, lotteryEndDate, units: [{ unitNumber: '1', bedroomType: 'Studio', monthlyRent: 900, amiPercent: 40 }] },
      });
      const id = created.json().data.id as string;
      expect((await stack.app.inject({ method: 'POST', url: `/api/Opportunity/manage/${id}/publish`, headers })).statusCode).toBe(200);
      return id;
    };
    const mailed = await make('Zephyr Court', '2098-01-15', 'Zephyr Court Lottery\nPO Box 7\nQueens, NY 11101');
    await make('Aster Place', '2098-12-31', '');

    const { page: visitor } = await openContext(browser, stack.baseUrl, { label: 'public-pages' });
    const consoleErrors = watchConsoleErrors(visitor);
    await visitor.goto('/');
    await visitor.getByRole('heading', { name: 'How the housing lottery works' }).waitFor();
    expect(await visitor.locator('.how-it-works li').count()).toBe(4);
    await visitor.getByRole('link', { name: 'Create an account' }).click();
    await visitor.waitForURL('**/register');

    // The sort control: soonest deadline first by default, latest first or by name on request (kept in the address).
    await visitor.goto('/public/opportunities');
    const names = () => visitor.locator('.card-title').allTextContents();
    const order = async () => (await names()).filter((n) => n === 'Zephyr Court' || n === 'Aster Place');
    await expect.poll(order).toEqual(['Zephyr Court', 'Aster Place']);
    await visitor.getByLabel('Sort by').selectOption({ label: 'Lottery ends latest' });
    await expect.poll(order).toEqual(['Aster Place', 'Zephyr Court']);
    expect(visitor.url()).toContain('sort=endingLate');
    await visitor.getByLabel('Sort by').selectOption({ label: 'Name (A to Z)' });
    // Aster Place already comes before Zephyr Court in the previous order: wait for the whole list to be by name.
    const byName = (list: string[]) => [...list].sort((a, b) => a.localeCompare(b, 'en'));
    await expect.poll(async () => { const all = await names(); return all.length > 2 && all.join('|') === byName(all).join('|'); }).toBe(true);
    expect(await order()).toEqual(['Aster Place', 'Zephyr Court']);

    await visitor.goto(`/public/opportunity/${mailed}`);
    await visitor.getByRole('heading', { name: 'Apply by mail' }).waitFor();
    expect(await visitor.locator('address.mailing-address').innerText()).toBe('Zephyr Court Lottery\nPO Box 7\nQueens, NY 11101');
    const links = visitor.locator('.paper-links a');
    expect(await links.allTextContents()).toEqual([
      'Paper application in English (PDF)',
      'Paper application in Español (PDF)',
      'Paper application in 中文（简体） (PDF)',
      'Paper application in বাংলা (PDF)',
    ]);
    const pdf = await visitor.request.get((await links.nth(1).getAttribute('href'))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
