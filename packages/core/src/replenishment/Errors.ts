/**
 * The failures of pick faces, each with its data and its message.
 */
import { Schema } from "effect"

/** 404: no setting for this SKU at this location, or a SKU the caller may not see. */
export class PickFaceNotFound extends Schema.TaggedError<PickFaceNotFound>()("PickFaceNotFound", {
  skuId: Schema.String,
  locId: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Pick face ${this.skuId} at ${this.locId} not found`
  }
}

/** 409: a pick-face setting needs a managed location of type PickFace. */
export class NotAPickFace extends Schema.TaggedError<NotAPickFace>()("NotAPickFace", {
  locId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Location ${this.locId} is not a pick face`
  }
}
