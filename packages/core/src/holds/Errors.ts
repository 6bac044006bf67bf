/**
 * The failures of holds (spec §1), each with its data and its message.
 */
import { Schema } from "effect"

/** 404: no hold with this id in the caller's scope. */
export class HoldNotFound extends Schema.TaggedError<HoldNotFound>()("HoldNotFound", {
  holdId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Hold ${this.holdId} not found`
  }
}

/** 409: the hold is not Active (H5: releasing twice). */
export class HoldWrongState extends Schema.TaggedError<HoldWrongState>()("HoldWrongState", {
  holdId: Schema.Number,
  status: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Hold ${this.holdId} is ${this.status}`
  }
}
