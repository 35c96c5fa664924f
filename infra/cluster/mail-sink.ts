/**
 * A real SMTP server as the cluster's mail sink: the worker sends every e-mail over SMTP exactly as in
 * production (SMTP_URL), and each message lands as an `.eml` file in one folder for a person to read.
 * Local only, so no TLS and no authentication.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SMTPServer } from 'smtp-server';

export interface MailSink {
  url: string;
  stop(): Promise<void>;
}

export async function startMailSink(dir: string, port: number): Promise<MailSink> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${++count}.eml`);
      pipeline(stream, createWriteStream(file, { mode: 0o600 })).then(() => done(), done);
    },
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ready());
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}
