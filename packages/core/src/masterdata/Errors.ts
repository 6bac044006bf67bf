/**
 * The failures of master data (customers, suppliers, carriers, SKU groups and SKUs), each with its
 * data and its documented message.
 */
import { Schema } from "effect"

/** 404: no customer with this id in the caller's scope. */
export class CustomerNotFound extends Schema.TaggedError<CustomerNotFound>()("CustomerNotFound", {
  customerId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Customer with id ${this.customerId} not found`
  }
}

/** 409: orders name the customer, so it cannot be deleted. */
export class CustomerInUse extends Schema.TaggedError<CustomerInUse>()("CustomerInUse", {
  customerId: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Customer ${this.customerId} is used by orders`
  }
}

/** 404: no supplier with this id in the caller's scope. */
export class SupplierNotFound extends Schema.TaggedError<SupplierNotFound>()("SupplierNotFound", {
  supplierId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Supplier with id ${this.supplierId} not found`
  }
}

/** 409: pre-advices name the supplier, so it cannot be deleted. */
export class SupplierInUse extends Schema.TaggedError<SupplierInUse>()("SupplierInUse", {
  supplierId: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Supplier ${this.supplierId} is used by pre-advices`
  }
}

/** 404: no carrier with this id on the caller's site. */
export class CarrierNotFound extends Schema.TaggedError<CarrierNotFound>()("CarrierNotFound", {
  carrierId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Carrier with id ${this.carrierId} not found`
  }
}

/** 409: orders name the carrier, so it cannot be deleted. */
export class CarrierInUse extends Schema.TaggedError<CarrierInUse>()("CarrierInUse", {
  carrierId: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Carrier ${this.carrierId} is used by orders`
  }
}

/** 404: no SKU group with this id in the caller's scope. */
export class SkuGroupNotFound extends Schema.TaggedError<SkuGroupNotFound>()("SkuGroupNotFound", {
  skuGroupId: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `SKU group with id ${this.skuGroupId} not found`
  }
}

/** 409: SKUs are in the group, so it cannot be deleted. */
export class SkuGroupInUse extends Schema.TaggedError<SkuGroupInUse>()("SkuGroupInUse", {
  skuGroupId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `SKU group ${this.skuGroupId} is used by SKUs`
  }
}

/** 404: no SKU with this id in the caller's scope. */
export class SkuNotFound extends Schema.TaggedError<SkuNotFound>()("SkuNotFound", {
  skuId: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `SKU with id ${this.skuId} not found`
  }
}

/** 409: the SKU id is in use on the site, also by a SKU the caller does not see. */
export class SkuExists extends Schema.TaggedError<SkuExists>()("SkuExists", {
  skuId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `SKU with id ${this.skuId} already exists`
  }
}
