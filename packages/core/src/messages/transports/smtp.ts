import nodemailer, { type Transporter } from 'nodemailer';

export const DEFAULT_EMAIL_FROM = 'Remit <no-reply@remit.local>';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface EmailTransport {
  readonly name: string;
  send(m: EmailMessage): Promise<{ id?: string }>;
  close(): void;
}

/** Email over SMTP (`SMTP_URL`, e.g. `smtp://user:pass@mail.example:587`), from `REMIT_EMAIL_FROM`. */
export function smtpTransport(smtpUrl: string, from = DEFAULT_EMAIL_FROM): EmailTransport {
  const t: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    name: 'smtp',
    async send(m) {
      const info = await t.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      return { id: info.messageId };
    },
    close: () => t.close(),
  };
}
