/**
 * The failures of transfers between sites, each with its data and its message.
 */
import { Schema } from "effect"

/** 409: a short-close asked of a pre-advice that no transfer created (spec §3 T5). */
export class PreAdviceNotTransfer extends Schema.TaggedError<PreAdviceNotTransfer>()("PreAdviceNotTransfer", {
  preAdviceId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `PreAdvice with PreAdviceID ${this.preAdviceId} was not made by a transfer: only a transfer's pre-advice can be closed`
  }
}
