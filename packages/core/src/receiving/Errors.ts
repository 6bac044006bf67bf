/**
 * The failures of pre-advices and receiving, each with its data and its documented message.
 */
import { Schema } from "effect"

/** 404: no pre-advice with this id in the caller's scope. */
export class PreAdviceNotFound extends Schema.TaggedError<PreAdviceNotFound>()("PreAdviceNotFound", {
  preAdviceId: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `PreAdvice with PreAdviceID ${this.preAdviceId} not found`
  }
}

/** 409: the pre-advice id is in use on the site. */
export class PreAdviceExists extends Schema.TaggedError<PreAdviceExists>()("PreAdviceExists", {
  preAdviceId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `PreAdvice with PreAdviceID ${this.preAdviceId} already exists`
  }
}

/** 404: the pre-advice has no line of this number. */
export class PreAdviceLineNotFound extends Schema.TaggedError<PreAdviceLineNotFound>()("PreAdviceLineNotFound", {
  preAdviceId: Schema.String,
  line: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Line ${this.line} of pre-advice ${this.preAdviceId} not found`
  }
}

/** 409: the line number is in use on the pre-advice, or given twice. */
export class PreAdviceLineExists extends Schema.TaggedError<PreAdviceLineExists>()("PreAdviceLineExists", {
  preAdviceId: Schema.String,
  line: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Line ${this.line} of pre-advice ${this.preAdviceId} already exists`
  }
}

/** 409: the pre-advice's highest line number is the highest there is, so a line without one gets none. */
export class PreAdviceLineNumbersExhausted extends Schema.TaggedError<PreAdviceLineNumbersExhausted>()(
  "PreAdviceLineNumbersExhausted",
  { preAdviceId: Schema.String }
) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `PreAdvice with PreAdviceID ${this.preAdviceId} has no line number left`
  }
}

/**
 * 409: the change is allowed only while the pre-advice is Open; `rule` says which (`only an Open
 * pre-advice can be changed`, …).
 */
export class PreAdviceNotOpen extends Schema.TaggedError<PreAdviceNotOpen>()("PreAdviceNotOpen", {
  preAdviceId: Schema.String,
  /** The pre-advice's status, as described (`In Receipt`, `Received`). */
  status: Schema.String,
  rule: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `PreAdvice with PreAdviceID ${this.preAdviceId} is ${this.status}: ${this.rule}`
  }
}

/** 409: every line of the pre-advice is received in full, or it has none. */
export class PreAdviceNothingToReceive extends Schema.TaggedError<PreAdviceNothingToReceive>()(
  "PreAdviceNothingToReceive",
  { preAdviceId: Schema.String }
) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `PreAdvice with PreAdviceID ${this.preAdviceId} has nothing left to receive`
  }
}

/** 409: a transfer's pre-advice is never deleted (spec §3 T5); what is not received is closed off instead. */
export class TransferPreAdviceNotDeletable extends Schema.TaggedError<TransferPreAdviceNotDeletable>()(
  "TransferPreAdviceNotDeletable",
  { preAdviceId: Schema.String }
) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `PreAdvice with PreAdviceID ${this.preAdviceId} came from a transfer and cannot be deleted; ` +
      "its close writes off what was not received"
  }
}
