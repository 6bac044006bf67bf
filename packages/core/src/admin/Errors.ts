/**
 * The failures of administration (sites, clients and users), each with its data and its
 * documented message.
 */
import { Schema } from "effect"

/** 409: a site or client has this id already. */
export class SiteExists extends Schema.TaggedError<SiteExists>()("SiteExists", {
  siteId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Site ${this.siteId} already exists`
  }
}

/** 409: clients are created on a fulfillment site only. */
export class NotFulfillmentSite extends Schema.TaggedError<NotFulfillmentSite>()("NotFulfillmentSite", {
  siteId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Site ${this.siteId} is not a fulfillment site`
  }
}

/** 409: a site or client has this id already. */
export class ClientExists extends Schema.TaggedError<ClientExists>()("ClientExists", {
  clientId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Client ${this.clientId} already exists`
  }
}

/** 404: no user with this id. */
export class UserNotFound extends Schema.TaggedError<UserNotFound>()("UserNotFound", {
  userId: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `User ${this.userId} not found`
  }
}

/** 409: another user has this e-mail address. */
export class UserExists extends Schema.TaggedError<UserExists>()("UserExists", {
  email: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `User with email ${this.email} already exists`
  }
}

/** 409: the change would leave no active admin. */
export class LastActiveAdmin extends Schema.TaggedError<LastActiveAdmin>()("LastActiveAdmin", {
  userId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `User ${this.userId} is the last active admin`
  }
}

/** 404: no site with this id. */
export class SiteNotFound extends Schema.TaggedError<SiteNotFound>()("SiteNotFound", {
  siteId: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Site with id ${this.siteId} not found`
  }
}
