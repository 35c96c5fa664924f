import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/database';

/** A fresh resident with no household yet, signed in by a token from the app's own signer. */
export async function newResident(app: FastifyInstance, db: Db, role: 'User' | 'Tenant' = 'User') {
  const tag = randomUUID().slice(0, 8);
  const user = await db
    .insertInto('users')
    .values({ username: `resident-${tag}`, email: `resident-${tag}@example.org`, first_name: 'Rosa', last_name: `Diaz-${tag}`, role, password_hash: 'x', organization_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { token } = app.signAccessToken({ sub: user.id, role });
  return { userId: user.id, headers: { authorization: `Bearer ${token}` } };
}

export const adultMember = (over: Record<string, unknown> = {}) => ({
  fullName: 'Rosa Diaz', relationship: 'self', dateOfBirth: '1975-03-09', gender: 'female', ssn: '123-45-6789', races: ['white'],
  ethnicity: 'hispanic_or_latino', maritalStatus: 'married', studentStatus: 'not_a_student', studentEligibility: 'not_applicable',
  headOfHousehold: true, email: 'rosa@example.org', mobile: '(212) 555-0199', ...over,
});

/** A minimal valid PDF (magic bytes %PDF-). */
export const tinyPdf = () => Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** A multipart body with text fields and files. */
export function multipart(fields: Record<string, string>, files: { name: string; body: Buffer; type?: string }[]) {
  const boundary = `----portal${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/pdf'}\r\n\r\n`));
    chunks.push(f.body, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Pay dates of the last `count` pay periods `everyDays` apart, the newest 2 days ago (YYYY-MM-DD, comma-separated). */
export function recentPayDates(count: number, everyDays: number, now = new Date()): string {
  return Array.from({ length: count }, (_, i) => new Date(now.getTime() - (2 + i * everyDays) * 86_400_000).toISOString().slice(0, 10)).join(',');
}
