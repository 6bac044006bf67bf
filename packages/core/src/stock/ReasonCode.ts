/**
 * The reasons a stock correction names (warehouse cycle C6): on a count's applied variance and,
 * optionally, on an adjustment. A fixed list, so reports can group by it.
 */
import { Schema } from "effect"

export const ReasonCodes = ["Damaged", "Mispick", "Miscount", "Found", "Theft", "Expired", "Other"] as const

/** A reason code; another value is a 400 naming the valid ones. */
export const ReasonCode = Schema.Literal(...ReasonCodes).pipe(
  Schema.annotations({ message: () => `must be one of ${ReasonCodes.join(", ")}` })
)
export type ReasonCode = typeof ReasonCode.Type
