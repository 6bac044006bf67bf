/**
 * The reasons a stock correction names (warehouse cycle C6): on a count's applied variance and,
 * optionally, on an adjustment. A fixed list, so reports can group by it.
 */
import { Schema } from "effect"

export const ReasonCodes = ["Damaged", "Mispick", "Miscount", "Found", "Theft", "Expired", "Other"] as const
export type ReasonCode = typeof ReasonCodes[number]

const isReasonCode = (s: string): s is ReasonCode => (ReasonCodes as ReadonlyArray<string>).includes(s)

/** A reason code; another value is a 400 naming the valid ones. */
export const ReasonCode = Schema.String.pipe(
  Schema.filter(isReasonCode, { message: () => `must be one of ${ReasonCodes.join(", ")}` })
)

/** The reasons a short pick names: those of a correction, and that the stock was not there. */
export const ShortPickReasonCodes = [...ReasonCodes, "StockOut"] as const
export type ShortPickReasonCode = typeof ShortPickReasonCodes[number]

const isShortPickReasonCode = (s: string): s is ShortPickReasonCode =>
  (ShortPickReasonCodes as ReadonlyArray<string>).includes(s)

/** The reason of a short pick; another value is a 400 naming the valid ones. */
export const ShortPickReasonCode = Schema.String.pipe(
  Schema.filter(isShortPickReasonCode, { message: () => `must be one of ${ShortPickReasonCodes.join(", ")}` })
)
