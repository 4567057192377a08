import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Flags for a headless Chromium on a CI box: no sandbox (root in a container), nothing phoning home. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** `CHROMIUM_PATH`, else the system Chromium, else the one @sparticuz/chromium unpacks (never Playwright's own browser download). */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const sparticuz = (await import('@sparticuz/chromium')).default;
  return sparticuz.executablePath();
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
}
