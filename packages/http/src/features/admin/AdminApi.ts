/**
 * Administration of sites, clients and users (extension, admin only).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  ClientExists,
  LastActiveAdmin,
  ListWindow,
  NewClient,
  NewSite,
  NewUser,
  NotFulfillmentSite,
  SiteExists,
  SiteNotFound,
  SiteSettings,
  SiteSettingsUpdate,
  TextIdFromPath,
  UserChanges,
  UserExists,
  UserNotFound
} from "@wms/core"
import { Schema } from "effect"
import { onTheWire } from "../../api/Errors.js"
import { AdminAuthorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

export const SiteRecord = Schema.Struct({
  site_id: Schema.String,
  name: Schema.String,
  fulfillment: Schema.Boolean
})

export const ClientRecord = Schema.Struct({
  client_id: Schema.String,
  site_id: Schema.String,
  name: Schema.String
})

export const UserRecord = Schema.Struct({
  userId: Schema.String,
  email: Schema.String,
  name: Schema.String,
  admin: Schema.Boolean,
  site: Schema.String,
  client: Schema.NullOr(Schema.String),
  active: Schema.Boolean
})

const UserPath = Schema.Struct({ userId: TextIdFromPath })
const SitePath = Schema.Struct({ id: TextIdFromPath })

export class AdminApi extends HttpApiGroup.make("admin")
  .add(HttpApiEndpoint.get("listSites", "/sites").setUrlParams(ListWindow).addSuccess(Schema.Array(SiteRecord)))
  .add(
    HttpApiEndpoint.post("createSite", "/sites")
      .setPayload(NewSite)
      .annotate(ReadOnlyFields, SiteRecord)
      .addError(onTheWire(SiteExists))
      .annotate(OpenApi.Description, "Creates a site. A site id taken by a site or a client: 409.")
  )
  .add(
    HttpApiEndpoint.get("getSiteSettings", "/sites/:id/settings")
      .setPath(SitePath)
      .addSuccess(SiteSettings)
      .addError(onTheWire(SiteNotFound))
      .annotate(
        OpenApi.Description,
        "The settings of a site that turn on behaviour changing what an existing request does, each off until " +
          "set: `putaway_on_receipt`, whether `POST /preadvices/:id/receive` makes putaway tasks when its body " +
          "does not say; `count_variance_threshold` `{percent, units}` (both null: every count applies at once), " +
          "how far a count line may be off without an admin's approval: within when |variance| ≤ units (if set) " +
          "and |variance| ≤ percent × (expected + in_flight) / 100 (if set). Unknown site: 404 `Site with id <id> " +
          "not found`."
      )
  )
  .add(
    HttpApiEndpoint.put("updateSiteSettings", "/sites/:id/settings")
      .setPath(SitePath)
      .setPayload(SiteSettingsUpdate)
      .annotate(ReadOnlyFields, SiteSettings)
      .addError(onTheWire(SiteNotFound))
      .annotate(
        OpenApi.Description,
        "Changes the settings present in the body and keeps the others; `count_variance_threshold` replaces " +
          "both its limits (an omitted one becomes null; percent a number from 0 to 1000000, units a whole " +
          "number). Unknown site: 404 `Site with id <id> " +
          "not found`. 204."
      )
  )
  .add(
    HttpApiEndpoint.get("listClients", "/clients")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(ClientRecord))
      .annotate(OpenApi.Description, "The clients of the site in the `site` header.")
  )
  .add(
    HttpApiEndpoint.post("createClient", "/clients")
      .setPayload(NewClient)
      .annotate(ReadOnlyFields, ClientRecord)
      .addError(onTheWire(NotFulfillmentSite))
      .addError(onTheWire(ClientExists))
      .annotate(
        OpenApi.Description,
        "Adds a client to the fulfillment site in the `site` header. Client ids are unique across the installation: 409."
      )
  )
  .add(
    HttpApiEndpoint.get("listUsers", "/users")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(UserRecord))
      .annotate(OpenApi.Description, "The users whose home is the site in the `site` header; never their passwords.")
  )
  .add(
    HttpApiEndpoint.post("createUser", "/users")
      .setPayload(NewUser)
      .annotate(ReadOnlyFields, UserRecord)
      .addError(onTheWire(UserExists))
      .annotate(
        OpenApi.Description,
        "Creates a user; the password is kept only as a salted scrypt hash. E-mail taken: 409."
      )
  )
  .add(
    HttpApiEndpoint.put("updateUser", "/users/:userId")
      .setPath(UserPath)
      .setPayload(UserChanges)
      .annotate(ReadOnlyFields, UserRecord)
      .addError(onTheWire(UserNotFound))
      .addError(onTheWire(UserExists))
      .addError(onTheWire(LastActiveAdmin))
      .annotate(
        OpenApi.Description,
        "Changes the fields present (`email`, `password`, `name`, `admin`, `site`, `client`, `active`; `client: null` " +
          "clears it). `active: false` disables the user: it can no longer log in. Every change ends the user's " +
          "tokens (401 `Authorization token not valid`); it logs in again. Unknown user: 404 `User <userId> not " +
          "found`; e-mail taken, or disabling or demoting the last active admin: 409."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteUser", "/users/:userId")
      .setPath(UserPath)
      .addError(onTheWire(UserNotFound))
      .addError(onTheWire(LastActiveAdmin))
      .annotate(
        OpenApi.Description,
        "Deletes the user and ends its tokens. Unknown user: 404; the last active admin: 409."
      )
  )
  .middleware(AdminAuthorization)
  .annotate(OpenApi.Title, "Administration")
  .annotate(OpenApi.Description, "Extension. Admin only: anyone else gets 403 `Admin rights required`.")
{}
