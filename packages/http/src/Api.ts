/**
 * The declaration of the warehouse REST API: every group, endpoint, schema and error, apart from
 * the handlers, so that the server, the OpenAPI document and typed clients share one source.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { AdminApi } from "./features/admin/AdminApi.js"
import { AuthApi } from "./features/auth/AuthApi.js"
import { CarriersApi } from "./features/carriers/CarriersApi.js"
import { CountsApi } from "./features/counts/CountsApi.js"
import { BadRequest, InternalError, PayloadTooLargeError } from "./api/Errors.js"
import { ImportExportApi } from "./features/import-export/ImportExportApi.js"
import { InventoryApi } from "./features/inventory/InventoryApi.js"
import { LocationsApi } from "./features/locations/LocationsApi.js"
import { MovementTasksApi } from "./features/movement-tasks/MovementTasksApi.js"
import { documentOperations } from "./api/Operations.js"
import { OrdersApi } from "./features/orders/OrdersApi.js"
import { CustomersApi, SuppliersApi } from "./features/partners/PartnersApi.js"
import { PickFacesApi, ReplenishmentApi } from "./features/pick-faces/PickFacesApi.js"
import { PickingApi } from "./features/picking/PickingApi.js"
import { PreAdvicesApi } from "./features/pre-advices/PreAdvicesApi.js"
import { ReceivingApi } from "./features/receiving/ReceivingApi.js"
import { PickMethodsApi, SkuGroupsApi, SkusApi } from "./features/skus/SkusApi.js"
import { SystemApi } from "./features/system/SystemApi.js"
import { documentBodies } from "./api/UnknownFields.js"
import { WaveDefinitionsApi } from "./features/wave-definitions/WaveDefinitionsApi.js"
import { WavesApi } from "./features/waves/WavesApi.js"
import { WebhooksApi } from "./features/webhooks/WebhooksApi.js"

const declaration = HttpApi.make("warehouse")
  .add(SystemApi)
  .add(AuthApi)
  .add(AdminApi)
  .add(CustomersApi)
  .add(SuppliersApi)
  .add(CarriersApi)
  .add(SkusApi)
  .add(SkuGroupsApi)
  .add(PickMethodsApi)
  .add(OrdersApi)
  .add(PreAdvicesApi)
  .add(InventoryApi)
  .add(ReceivingApi)
  .add(LocationsApi)
  .add(MovementTasksApi)
  .add(CountsApi)
  .add(PickFacesApi)
  .add(ReplenishmentApi)
  .add(WaveDefinitionsApi)
  .add(WavesApi)
  .add(PickingApi)
  .add(WebhooksApi)
  .add(ImportExportApi)
  .addError(BadRequest)
  .addError(PayloadTooLargeError)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Warehouse Management Service API")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(
    OpenApi.Description,
    "Every request carries `Authorization: Bearer <token>` and `site: <site_id or client_id>`, but /login, " +
      "/health, /ready, /openapi.json and /docs (neither) and /verifytoken and POST /users/me/password (the token " +
      "only). Errors are `{message}`. Numeric ids and quantities are 32-bit integers, in " +
      "paths, queries and bodies alike (`2147483648` as an id: 400 `Invalid field <name>: must be an integer id`); " +
      "totals such as a wave's `qty_ordered` are 64-bit. Text with U+0000 is refused in every field (400 `Invalid " +
      "field <path>: must not contain NUL characters`), and so is a body nested more than 32 levels deep (400); a " +
      "body over 1 MiB gets 413. Bodies are JSON: a body of another content type (a form, multipart, XML, text) " +
      "is 400 `Request body must be a JSON object`; but POST /import/<kind> reads a CSV or NDJSON file of any size. A field a body does not take is ignored; with `Prefer: " +
      "handling=strict` (RFC 7240) a field that the record does not have is 400 `Unknown field <path>` (the " +
      "record's read-only fields, as a GET shows them, are still ignored), and the answer carries " +
      "`Preference-Applied: handling=strict`. `Authorization` holds `Bearer` (in any case), whitespace and the " +
      "token; no header, another scheme or no token is 401 `Missing authorization token`. " +
      "Every POST but /login and /import/<kind> takes an optional `Idempotency-Key` header (1 to 255 visible " +
      "ASCII characters but `\"` and `\\`): a retry with the same key and the same request within 24 hours gets the " +
      "first answer, with `Idempotent-Replayed: true`, and runs nothing; the key with another request is a 409."
  )

const documentOperationsOf = documentOperations(declaration)

export class WarehouseApi extends declaration
  .annotate(OpenApi.License, { name: "MIT", url: "https://opensource.org/license/mit" })
  .annotate(OpenApi.Servers, [{ url: "/", description: "The server that serves this document" }])
  .annotate(OpenApi.Transform, (spec) => documentOperationsOf(documentBodies(spec)))
{}
