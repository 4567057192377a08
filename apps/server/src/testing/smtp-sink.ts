import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for `smtpTransport`. */
  url: string;
  /** Every message received: its envelope recipients and its raw text. */
  mails: Array<{ to: string[]; raw: string }>;
  close(): Promise<void>;
}

/** A real SMTP server in-process that keeps every message it is sent (no TLS, no auth). */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SmtpSink['mails'] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    mails,
    close: () => new Promise<void>((r) => smtp.close(() => r())),
  };
}
