/**
 * GS1 SSCC-18, the serial shipping container code (spec §4 P1): an extension digit, the GS1
 * company prefix (7 to 10 digits), a serial that fills the 17 digits, and a mod-10 check digit.
 */

/** The check digit of a GS1 key's digits without it: weights 3 and 1 alternate from the right. */
export const checkDigit = (digits: string): number => {
  let sum = 0
  for (let i = digits.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) {
    sum += (digits.charCodeAt(i) - 48) * weight
  }
  return (10 - (sum % 10)) % 10
}

const eighteenDigits = /^\d{18}$/

/** Whether `sscc` is 18 digits whose last is the check digit of the 17 before it. */
export const isValidSscc = (sscc: string): boolean =>
  eighteenDigits.test(sscc) && checkDigit(sscc.slice(0, 17)) === sscc.charCodeAt(17) - 48

/** A GS1 company prefix: 7 to 10 digits. */
export const companyPrefixPattern = /^\d{7,10}$/

/** The largest serial a company prefix leaves room for: 16 digits less the prefix's. */
export const maxSerial = (companyPrefix: string): number => 10 ** (16 - companyPrefix.length) - 1

/**
 * The SSCC of a serial: extension digit, company prefix, the serial padded with zeros to fill the
 * 17 digits, and the check digit. The serial must be from 1 to `maxSerial(companyPrefix)`.
 */
export const makeSscc = (extensionDigit: number, companyPrefix: string, serial: number): string => {
  const body = `${extensionDigit}${companyPrefix}${String(serial).padStart(16 - companyPrefix.length, "0")}`
  return `${body}${checkDigit(body)}`
}
