/**
 * Text the stores keep exactly as sent. A lone UTF-16 surrogate (`"\ud800"` is valid JSON) is no
 * character: both stores would keep it as U+FFFD, a value other than the one sent.
 */

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether `text` holds a surrogate without its other half. */
export const hasLoneSurrogate = (text: string): boolean => loneSurrogate.test(text)

/** Why such a text is refused, after `Invalid field <path>: `. */
export const loneSurrogateMessage = "must be valid Unicode text"
