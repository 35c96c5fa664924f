import { describe, expect, it } from 'vitest';
import { SMS_MAX_SEGMENTS, phoneKey, smsKeyword, smsLength } from '../../domain/sms';
import { allTemplates, SMS_REPLY_KINDS, smsReplyText, type MessageLanguage } from '../../infra/notifications/templates';

const LANGUAGES: MessageLanguage[] = ['en', 'es', 'zh', 'bn'];
// A public address of 40 characters: the longest the texts are budgeted for (README, PUBLIC_BASE_URL).
const BASE_URL = 'https://housing-portal.example-city.org/';

// Every param a template reads, filled with values that would be easy to spot in a text.
const SENTINELS: Record<string, string | number> = {
  code: '493817',
  minutes: 10,
  firstName: 'Zuleika',
  lastName: 'Quintero',
  username: 'zquintero77',
  organizationName: 'Maplewood Housing Partners',
  ambassadorName: 'Ofelia Brandt',
  periodDays: 30,
  expiresOn: '2031-07-19',
  change: 'granted',
  failures: 41,
  path: '/resetpassword?userId=8d0f1a3e-1111-4d2c-9a55-4b6a0d7e2c19&token=Zk3J9aaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  verifyPath: '/verify-email?userId=8d0f1a3e-1111-4d2c-9a55-4b6a0d7e2c19&token=Yy8aaaaaaaaaaaaaaaaaaaaaaaaaaa',
  passwordPath: '/resetpassword?userId=8d0f1a3e-1111-4d2c-9a55-4b6a0d7e2c19&token=Xx7aaaaaaaaaaaaaaaaaaaaaaaaaaa',
  opportunityName: 'Juniper Court Apartments',
  logNumber: 'LOG-48213',
  applicationId: '5f6e7d8c-2222-4b3a-8c9d-0e1f2a3b4c5d',
  dueAt: '2031-03-14T12:00:00Z',
  offerId: '9a8b7c6d-3333-4e5f-8a9b-0c1d2e3f4a5b',
  appointmentAt: '2031-04-02T15:30:00Z',
  note: 'Bring the pay stubs from Acme Plumbing',
  daysBefore: 90,
  deadline: '2031-09-30',
  endsAt: '2031-08-31',
  event: 'answered',
  ticketId: '1b2c3d4e-4444-4f5a-8b6c-7d8e9f0a1b2c',
  ticketRef: 'TK-77120',
  audience: 'requester',
};
const VARIANTS: Record<string, Record<string, string>[]> = {
  'access-changed': [{ change: 'granted' }, { change: 'revoked' }, { change: 'ending' }, { change: 'expired' }],
  'support-ticket': ['answered', 'replied', 'resolved', 'escalated', 'chat'].map((event) => ({ event })),
};

describe('SMS segments', () => {
  it('counts GSM-7 and UCS-2 as the networks do', () => {
    expect(smsLength('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsLength('a'.repeat(161)).segments).toBe(2);
    expect(smsLength('a'.repeat(306)).segments).toBe(2);
    expect(smsLength('a'.repeat(307)).segments).toBe(3);
    // The extension table costs two septets a character.
    expect(smsLength('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsLength('中'.repeat(70))).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsLength('中'.repeat(71)).segments).toBe(2);
    expect(smsLength('ক'.repeat(134)).segments).toBe(2);
    expect(smsLength('ক'.repeat(135)).segments).toBe(3);
    // One character outside GSM-7 makes the whole text UCS-2.
    expect(smsLength(`${'a'.repeat(100)}ó`).encoding).toBe('UCS-2');
  });

  it('keeps every text message of every template to two segments in all four languages, with no personal data', () => {
    const checked: string[] = [];
    for (const template of allTemplates()) {
      for (const variant of VARIANTS[template.name] ?? [{}]) {
        const params = { ...SENTINELS, ...variant };
        const shown = new Set<string>(template.smsParams ?? []);
        for (const language of LANGUAGES) {
          const { sms } = template.render(language, params, { baseUrl: BASE_URL, notificationId: '0f1e2d3c-5555-4a4b-8c8d-9e9f0a0b0c0d' });
          const label = `${template.name} ${JSON.stringify(variant)} ${language}: ${sms}`;
          expect.soft(smsLength(sms).segments, label).toBeLessThanOrEqual(SMS_MAX_SEGMENTS);
          expect(smsLength(sms).segments, label).toBeGreaterThan(0);
          for (const [key, value] of Object.entries(SENTINELS)) {
            if (shown.has(key) || ['change', 'event', 'audience'].includes(key)) continue;
            expect.soft(sms, `${label} shows ${key}`).not.toContain(String(value));
          }
          // Figures of the message's own (dates, counts) stay out too; only a code the person asked for is shown.
          if (shown.size === 0) expect.soft(sms.replace(BASE_URL, ''), label).not.toMatch(/\d/);
          checked.push(label);
        }
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(4 * 20);
  });

  it('keeps the answers to STOP, START, HELP and other texts to two segments in all four languages', () => {
    for (const kind of SMS_REPLY_KINDS) {
      for (const language of LANGUAGES) {
        const text = smsReplyText(kind, language);
        expect.soft(smsLength(text).segments, `${kind} ${language}: ${text}`).toBeLessThanOrEqual(SMS_MAX_SEGMENTS);
      }
    }
  });
});

describe('SMS keywords', () => {
  it('reads the carriers’ opt-out, opt-in and help words in any case', () => {
    for (const word of ['STOP', 'stop', ' Stop ', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'quit.']) expect(smsKeyword(word), word).toBe('stop');
    for (const word of ['START', 'UNSTOP', 'yes']) expect(smsKeyword(word), word).toBe('start');
    for (const word of ['HELP', 'info']) expect(smsKeyword(word), word).toBe('help');
    for (const word of ['', 'stop please', 'hello', 'STOPP']) expect(smsKeyword(word), word).toBeNull();
  });

  it('treats the same number written two ways as one', () => {
    expect(phoneKey('+1 (212) 555-0142')).toBe(phoneKey('212-555-0142'));
    expect(phoneKey('+44 20 7946 0018')).toBe('442079460018');
  });
});
