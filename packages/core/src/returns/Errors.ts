/**
 * The failures of customer returns (spec §2), each with its data and its message.
 */
import { Schema } from "effect"

/** 404: no return with this id in the caller's scope. */
export class ReturnNotFound extends Schema.TaggedError<ReturnNotFound>()("ReturnNotFound", {
  returnId: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Return ${this.returnId} not found`
  }
}

/** 409: the return id is in use on the site. */
export class ReturnExists extends Schema.TaggedError<ReturnExists>()("ReturnExists", {
  returnId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Return ${this.returnId} already exists`
  }
}

/** 409: only goods of a shipped order come back (R1). */
export class OrderNotShipped extends Schema.TaggedError<OrderNotShipped>()("OrderNotShipped", {
  orderId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order ${this.orderId} is not shipped`
  }
}

/** 409: a transfer's goods went to another site of the installation; they come back by a transfer. */
export class ReturnOfTransfer extends Schema.TaggedError<ReturnOfTransfer>()("ReturnOfTransfer", {
  orderId: Schema.String,
  toSite: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order ${this.orderId} is a transfer to site ${this.toSite}: its goods come back by a transfer, not a return`
  }
}

/** 409: the returns of an order line would authorize more than it shipped (R2). */
export class ReturnExceedsShipped extends Schema.TaggedError<ReturnExceedsShipped>()("ReturnExceedsShipped", {
  qty: Schema.Number,
  returnable: Schema.Number,
  orderId: Schema.String,
  line: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Return of ${this.qty} exceeds the ${this.returnable} returnable of order ${this.orderId} line ${this.line}`
  }
}

/** 409: the return's status forbids the change: it is no longer open to receipts, or already ended (R4). */
export class ReturnStatusRefuses extends Schema.TaggedError<ReturnStatusRefuses>()("ReturnStatusRefuses", {
  returnId: Schema.String,
  status: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Return ${this.returnId} is ${this.status}`
  }
}

/** 409: a return with receipts is not cancelled but closed (R4). */
export class ReturnHasReceipts extends Schema.TaggedError<ReturnHasReceipts>()("ReturnHasReceipts", {
  returnId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Return ${this.returnId} has receipts: close it instead`
  }
}

/** 409: a return with nothing received is not closed but cancelled (R4). */
export class ReturnNothingReceived extends Schema.TaggedError<ReturnNothingReceived>()("ReturnNothingReceived", {
  returnId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Return ${this.returnId} has nothing received: delete it instead`
  }
}
