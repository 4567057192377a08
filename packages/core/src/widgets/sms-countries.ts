import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * Which country a phone number belongs to, for the widget's `sms_countries`: by calling code and,
 * within +1, by area code (Canada, Jamaica and the other +1 countries are not the US). Numbers of
 * no country (+882 international networks, unassigned codes) belong to none and are never texted.
 */
export function phoneCountry(e164: string): string | null {
  return parsePhoneNumberFromString(e164)?.country ?? null;
}

/** Whether the library knows the two-letter code as a country it can place phones in. */
export const isPhoneCountry = (code: string) => isSupportedCountry(code);
