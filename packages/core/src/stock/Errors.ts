/**
 * The failures of stock and its ledger, each with its data and its documented message.
 */
import { Schema } from "effect"

/** 404: no content with this id in the caller's scope. */
export class ContentNotFound extends Schema.TaggedError<ContentNotFound>()("ContentNotFound", {
  contentId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Inventory content with contentId ${this.contentId} not found`
  }
}

/** 404: no ledger transaction with this id in the caller's scope. */
export class TransactionNotFound extends Schema.TaggedError<TransactionNotFound>()("TransactionNotFound", {
  transactionId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Inventory transaction with transactionId ${this.transactionId} not found`
  }
}

/** 404: no lost-and-found item with this id in the caller's scope. */
export class LostAndFoundItemNotFound extends Schema.TaggedError<LostAndFoundItemNotFound>()(
  "LostAndFoundItemNotFound",
  { itemId: Schema.Number }
) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Lost and found item with id ${this.itemId} not found`
  }
}

/** 409: the adjustment would take the content's quantity past the largest there is (`max`). */
export class ContentFull extends Schema.TaggedError<ContentFull>()("ContentFull", {
  contentId: Schema.Number,
  max: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Inventory content with contentId ${this.contentId} cannot hold more than ${this.max}`
  }
}

/**
 * 409: the content's quantity cannot go from `qty` to `next`: `held` of it is allocated or tasked,
 * only `available` is free.
 */
export class StockShort extends Schema.TaggedError<StockShort>()("StockShort", {
  contentId: Schema.Number,
  qty: Schema.Number,
  next: Schema.Number,
  held: Schema.Number,
  available: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Content ${this.contentId} cannot go from ${this.qty} to ${this.next}: ` +
      `${this.held} of it is allocated or tasked, ${this.available} is available`
  }
}

/**
 * 409: an Active hold covers the content, so its stock may move only to a Quarantine location
 * (spec §1, H1 and H3).
 */
export class ContentHeld extends Schema.TaggedError<ContentHeld>()("ContentHeld", {
  contentId: Schema.Number,
  holdId: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Content ${this.contentId} is held by hold ${this.holdId}: it may move only to a Quarantine location`
  }
}
