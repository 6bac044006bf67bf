/**
 * The failures of orders and their lines, each with its data and its documented message.
 */
import { Schema } from "effect"

/** 404: no order with this id in the caller's scope. */
export class OrderNotFound extends Schema.TaggedError<OrderNotFound>()("OrderNotFound", {
  orderId: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Order with OrderID ${this.orderId} not found`
  }
}

/** 409: the order id is in use on the site. */
export class OrderExists extends Schema.TaggedError<OrderExists>()("OrderExists", {
  orderId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order with OrderID ${this.orderId} already exists`
  }
}

/** 404: the order has no line of this number. */
export class OrderLineNotFound extends Schema.TaggedError<OrderLineNotFound>()("OrderLineNotFound", {
  orderId: Schema.String,
  line: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Line ${this.line} of order ${this.orderId} not found`
  }
}

/** 409: the line number is in use on the order, or given twice. */
export class OrderLineExists extends Schema.TaggedError<OrderLineExists>()("OrderLineExists", {
  orderId: Schema.String,
  line: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Line ${this.line} of order ${this.orderId} already exists`
  }
}

/** 409: the order's highest line number is the highest there is, so a line without one gets none. */
export class OrderLineNumbersExhausted extends Schema.TaggedError<OrderLineNumbersExhausted>()(
  "OrderLineNumbersExhausted",
  { orderId: Schema.String }
) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order with OrderID ${this.orderId} has no line number left`
  }
}

/** 409: the change (`action`, e.g. `its lines can change`) is allowed only while the order is Released. */
export class OrderNotReleased extends Schema.TaggedError<OrderNotReleased>()("OrderNotReleased", {
  orderId: Schema.String,
  /** The order's status, as described (`Allocated`, `In Progress`, …). */
  status: Schema.String,
  action: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order with OrderID ${this.orderId} is ${this.status}: ${this.action} only while it is Released`
  }
}

/** 409: the order is past allocation (`status` as described), so it can no longer be deleted. */
export class OrderNotDeletable extends Schema.TaggedError<OrderNotDeletable>()("OrderNotDeletable", {
  orderId: Schema.String,
  status: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order with OrderID ${this.orderId} is ${this.status}: it can be deleted only until picking starts`
  }
}

/** 409: part of the allocated order is picked already, so its allocation cannot be given back. */
export class OrderPickingStarted extends Schema.TaggedError<OrderPickingStarted>()("OrderPickingStarted", {
  orderId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order with OrderID ${this.orderId} cannot be deleted: picking has started`
  }
}

/**
 * 409: a SKU of a transfer order does not exist at its destination (spec §3 T1), at the order's
 * creation, when a line is added or changed, and again when it ships.
 */
export class TransferSkuMissing extends Schema.TaggedError<TransferSkuMissing>()("TransferSkuMissing", {
  skuId: Schema.String,
  siteId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `SKU ${this.skuId} does not exist at site ${this.siteId}, the transfer's destination`
  }
}

/**
 * 409: a transfer order asked for in a client's scope (spec §3 T7). A transfer moves a site's own
 * stock, and a client's stock has nowhere to go: client ids are unique to one site.
 */
export class TransferInClientScope extends Schema.TaggedError<TransferInClientScope>()("TransferInClientScope", {
  clientId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `A transfer moves a site's own stock: it cannot be made in the scope of client ${this.clientId}`
  }
}
