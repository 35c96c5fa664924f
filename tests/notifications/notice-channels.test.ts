import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities';
import { deliverPending, type EmailMessage, type SmsMessage } from '../../infra/notifications';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Choice = { name: string; email: boolean; sms: boolean };
const CHOICES: Choice[] = [
  { name: 'email', email: true, sms: false },
  { name: 'text messages', email: false, sms: true },
  { name: 'both', email: true, sms: true },
  { name: 'neither', email: false, sms: false },
];
const SUBJECT = { en: 'Your annual recertification is due', zh: '您的重新认证即将到期' } as const;

/**
 * A case notice (the 90-day recertification notice) goes by the channels the tenant chose in
 * Settings, in their language: email, text, both, or, with neither, a letter in the print queue.
 */
describe.sequential('notices by the channels each person chose', () => {
  let stack: Stack;
  let tenantId: string;
  let emails: EmailMessage[] = [];
  let texts: SmsMessage[] = [];
  const deliver = () =>
    deliverPending({
      db: stack.db,
      transports: { email: { send: async (m) => void emails.push(m) }, sms: { send: async (m) => void texts.push(m) } },
      context: { baseUrl: 'https://portal.example.org' },
    });

  beforeAll(async () => {
    stack = await startStack({ worker: false });
    tenantId = (await signIn(stack.app, 'Tenant')).userId;
    await stack.db.updateTable('users').set({ phone_number: '(347) 555-0177' }).where('id', '=', tenantId).execute();
  }, 180_000);
  afterAll(() => stack?.close());

  for (const language of ['en', 'zh'] as const) {
    for (const choice of CHOICES) {
      it(`${choice.name}, in ${language}`, async () => {
        await stack.db.updateTable('users').set({ notify_email: choice.email, notify_sms: choice.sms, preferred_language: language }).where('id', '=', tenantId).execute();
        emails = [];
        texts = [];
        const caseId = randomUUID();
        const notice = { userId: tenantId, template: 'recertification-notice', params: { daysBefore: 90, deadline: '2027-01-31' }, dedupeKey: `recert:${caseId}:notice-90` };
        const activities = createActivities({ db: stack.db, blobs: stack.blobs });
        const first = await activities.sendNotice(notice);
        // Asked twice (a retried activity): still one message per channel.
        await activities.sendNotice(notice);
        await deliver();

        const expected = [...(choice.email ? ['email'] : []), ...(choice.sms ? ['sms'] : [])];
        expect(first.channels).toEqual(expected.length > 0 ? expected : ['print']);
        expect(emails.map((m) => m.subject)).toEqual(choice.email ? [SUBJECT[language]] : []);
        expect(texts.map((m) => m.text)).toEqual(choice.sms ? [`${language === 'zh' ? '住房门户' : 'Housing Portal'}: ${SUBJECT[language]}. https://portal.example.org/recertification`] : []);
        expect(texts.map((m) => m.to)).toEqual(choice.sms ? ['(347) 555-0177'] : []);
        const letters = await stack.db.selectFrom('mailed_letters').select(['letter', 'language']).where('dedupe_key', '=', `notice:${notice.dedupeKey}`).execute();
        expect(letters).toEqual(expected.length > 0 ? [] : [{ letter: 'recertification-notice', language }]);
      });
    }
  }
});
