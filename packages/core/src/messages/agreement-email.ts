import { escapeHtml, oneLine, type EmailContent } from './templates.js';

/** The email to a new merchant's owner: read and accept the merchant agreement at `link`. */
export function agreementEmail(m: { businessName: string; ownerName: string; link: string }): EmailContent {
  const business = oneLine(m.businessName);
  const subject = `Accept the merchant agreement for ${business}`;
  const lines = [
    `Hi ${oneLine(m.ownerName)},`,
    `${business} has been submitted for payment processing. Before it can take payments, please read and accept the merchant agreement:`,
    m.link,
    'If you did not apply, you can ignore this email.',
  ];
  const html = [
    `<p>${escapeHtml(lines[0]!)}</p>`,
    `<p>${escapeHtml(lines[1]!)}</p>`,
    `<p><a href="${escapeHtml(m.link)}">Read and accept the agreement</a></p>`,
    `<p>${escapeHtml(lines[3]!)}</p>`,
  ].join('\n');
  return { subject, text: lines.join('\n\n'), html };
}
