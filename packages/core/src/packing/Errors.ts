/**
 * The failures of packing into shipping units (spec §4), each with its data and its message.
 */
import { Schema } from "effect"

/** 404: no shipping unit with this id in the caller's scope. */
export class ShippingUnitNotFound extends Schema.TaggedError<ShippingUnitNotFound>()("ShippingUnitNotFound", {
  unitId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Shipping unit ${this.unitId} not found`
  }
}

/** 409: the site has no GS1 company prefix, so it cannot make an SSCC (spec §4 P1). */
export class CompanyPrefixMissing extends Schema.TaggedError<CompanyPrefixMissing>()("CompanyPrefixMissing", {
  siteId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Site ${this.siteId} has no gs1_company_prefix`
  }
}

/** 409: the site's SSCC counter has used every serial its company prefix leaves room for. */
export class SsccSerialsExhausted extends Schema.TaggedError<SsccSerialsExhausted>()("SsccSerialsExhausted", {
  siteId: Schema.String,
  companyPrefix: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Site ${this.siteId} has used every SSCC serial of company prefix ${this.companyPrefix}`
  }
}

/** 409: a client's own SSCC is the SSCC of another unit of the site (spec §4 P1). */
export class SsccTaken extends Schema.TaggedError<SsccTaken>()("SsccTaken", {
  sscc: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `SSCC ${this.sscc} is in use on the site`
  }
}

/** 409: packing this much would put more of the order line in units than was picked (spec §4 P2). */
export class PackedExceedsPicked extends Schema.TaggedError<PackedExceedsPicked>()("PackedExceedsPicked", {
  orderId: Schema.String,
  line: Schema.Number,
  picked: Schema.Number,
  packed: Schema.Number,
  qty: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Line ${this.line} of order ${this.orderId} has ${this.picked} picked and ${this.packed} packed: ${this.qty} more exceeds what was picked`
  }
}

/** 409: the unit is closed or shipped, so its lines and cartons cannot change (spec §4 P3). */
export class ShippingUnitNotOpen extends Schema.TaggedError<ShippingUnitNotOpen>()("ShippingUnitNotOpen", {
  unitId: Schema.Number,
  status: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Shipping unit ${this.unitId} is ${this.status}: its contents cannot change`
  }
}

/** 409: the unit is shipped, so it cannot change or be unpacked. */
export class ShippingUnitShipped extends Schema.TaggedError<ShippingUnitShipped>()("ShippingUnitShipped", {
  unitId: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Shipping unit ${this.unitId} is shipped`
  }
}

/** 409: a unit with no lines and no cartons cannot be closed. */
export class ShippingUnitEmpty extends Schema.TaggedError<ShippingUnitEmpty>()("ShippingUnitEmpty", {
  unitId: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Shipping unit ${this.unitId} is empty`
  }
}

/** 409: a pallet closes only once every carton on it is closed. */
export class ShippingUnitCarriesOpen extends Schema.TaggedError<ShippingUnitCarriesOpen>()("ShippingUnitCarriesOpen", {
  unitId: Schema.Number,
  cartonId: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Shipping unit ${this.unitId} carries open carton ${this.cartonId}`
  }
}

/** 404: the unit holds nothing of this order line. */
export class ShippingUnitLineNotFound
  extends Schema.TaggedError<ShippingUnitLineNotFound>()("ShippingUnitLineNotFound", {
    unitId: Schema.Number,
    orderLine: Schema.Number
  })
{
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Shipping unit ${this.unitId} holds no order line ${this.orderLine}`
  }
}

/** 409: the order is shipped, so what is packed of it cannot change. */
export class OrderPackingClosed extends Schema.TaggedError<OrderPackingClosed>()("OrderPackingClosed", {
  orderId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order ${this.orderId} is shipped: its packing cannot change`
  }
}

/** 409: with `pack_before_ship` on, the order ships only once all it picked is in units (spec §4 P5). */
export class OrderNotPacked extends Schema.TaggedError<OrderNotPacked>()("OrderNotPacked", {
  orderId: Schema.String,
  units: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order ${this.orderId} has ${this.units} picked units not packed`
  }
}

/** 409: with `pack_before_ship` on, the order ships only once every one of its units is closed. */
export class OrderUnitsOpen extends Schema.TaggedError<OrderUnitsOpen>()("OrderUnitsOpen", {
  orderId: Schema.String,
  units: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order ${this.orderId} has ${this.units} shipping units not closed`
  }
}
