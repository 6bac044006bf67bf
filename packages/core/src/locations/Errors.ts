/**
 * The failures of the location master and of the rules locations put on stock, each with its data
 * and its message.
 */
import { Schema } from "effect"

/** 404: no location record with this id on the caller's site. */
export class LocationNotFound extends Schema.TaggedError<LocationNotFound>()("LocationNotFound", {
  locId: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Location with id ${this.locId} not found`
  }
}

/** 409: the site has a location with this id already. */
export class LocationExists extends Schema.TaggedError<LocationExists>()("LocationExists", {
  locId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Location ${this.locId} already exists`
  }
}

/** 409: a location that holds stock or is the source or destination of an open task cannot be deleted or re-typed. */
export class LocationInUse extends Schema.TaggedError<LocationInUse>()("LocationInUse", {
  locId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Location ${this.locId} holds stock or open tasks`
  }
}

/** 409: `Counting` is set and cleared by counts only. */
export class LocationBeingCounted extends Schema.TaggedError<LocationBeingCounted>()("LocationBeingCounted", {
  locId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Location ${this.locId} is being counted`
  }
}

/** 409: the location's status refuses the change (stock in, or stock out). */
export class LocationStatusRefuses extends Schema.TaggedError<LocationStatusRefuses>()("LocationStatusRefuses", {
  locId: Schema.String,
  status: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Location ${this.locId} is ${this.status}`
  }
}

/** 409: the location's capacity, counting open inbound tasks, has no room for `qty` of the SKU. */
export class LocationFull extends Schema.TaggedError<LocationFull>()("LocationFull", {
  locId: Schema.String,
  qty: Schema.Number,
  skuId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Location ${this.locId} has no room for ${this.qty} of ${this.skuId}`
  }
}
