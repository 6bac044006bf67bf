/**
 * The failures of cycle counts, each with its data and its message.
 */
import { Schema } from "effect"
import { Forbidden } from "../shared/Errors.js"

/** 404: no count with this id on the caller's site. */
export class CountNotFound extends Schema.TaggedError<CountNotFound>()("CountNotFound", {
  countId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Count with id ${this.countId} not found`
  }
}

/** 409: the count's status does not allow the step; `status` is its description. */
export class CountWrongState extends Schema.TaggedError<CountWrongState>()("CountWrongState", {
  countId: Schema.Number,
  status: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Count ${this.countId} is ${this.status}`
  }
}

/** 409: the location has a count that is Open, Counting or Pending Approval already. */
export class LocationAlreadyCounted extends Schema.TaggedError<LocationAlreadyCounted>()("LocationAlreadyCounted", {
  locId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Location ${this.locId} is already being counted`
  }
}

/** 409: a release while stock is on its way to the location: it would arrive uncounted. */
export class LocationHasInbound extends Schema.TaggedError<LocationHasInbound>()("LocationHasInbound", {
  locId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Location ${this.locId} has open inbound movement tasks`
  }
}

/** 409: applying would leave a content with less than its open movement tasks carry away. */
export class CountBelowTasked extends Schema.TaggedError<CountBelowTasked>()("CountBelowTasked", {
  contentId: Schema.Number,
  tasked: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Content ${this.contentId} has ${this.tasked} under movement tasks: confirm or cancel them before the count applies`
  }
}

/** 403: counts weigh every client's stock at a location, so they are for users of the whole site. */
export const siteUserRequired = new Forbidden({ message: "Counts are for users of the whole site" })
