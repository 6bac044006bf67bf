/**
 * Text the stores keep exactly as sent. A lone UTF-16 surrogate (`"\ud800"` is valid JSON) is no
 * character: both stores would keep it as U+FFFD, a value other than the one sent.
 */
import { Schema } from "effect"

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether `text` holds a surrogate without its other half. */
export const hasLoneSurrogate = (text: string): boolean => loneSurrogate.test(text)

/** Why such a text is refused, after `Invalid field <path>: `. */
export const loneSurrogateMessage = "must be valid Unicode text"

/**
 * A string the stores keep exactly as sent: PostgreSQL refuses U+0000 (a 500 unless refused here),
 * and a lone surrogate would be kept as U+FFFD. Every text a request writes or looks up is one.
 */
export const StoredText = Schema.String.pipe(
  Schema.filter((s) => !s.includes("\u0000"), { message: () => "must not contain NUL characters" }),
  Schema.filter((s) => !hasLoneSurrogate(s), { message: () => loneSurrogateMessage })
)
