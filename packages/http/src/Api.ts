/**
 * The declaration of the warehouse REST API: every group, endpoint, schema and error, apart from
 * the handlers, so that the server, the OpenAPI document and typed clients share one source.
 */
import { HttpApi, type HttpApiEndpoint, type HttpApiGroup, OpenApi } from "@effect/platform"
import { BadRequest, InternalError, PayloadTooLargeError } from "./api/Errors.js"
import { documentOperations } from "./api/Operations.js"
import { documentBodies } from "./api/UnknownFields.js"
import { features } from "./features/index.js"

/** The groups of the features. */
type Groups = (typeof features)[number]["group"]

/** `api` with the groups of the features, in their order. */
const withFeatures = <Id extends string, E, R>(api: HttpApi.HttpApi<Id, never, E, R>) =>
  features.reduce<HttpApi.HttpApi<Id, HttpApiGroup.HttpApiGroup.Any, E, R>>(
    (built, { group }) => built.add(group),
    api
  ) as unknown as HttpApi.HttpApi<Id, Groups, E, R>

const declaration = withFeatures(HttpApi.make("warehouse"))
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
      "field <path>: must not contain NUL characters`), so is body text with a lone surrogate (400 `Invalid field " +
      "<path>: must be valid Unicode text`), and so is a body nested more than 32 levels deep (400); a " +
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

/** The name of a group of the API. */
export type GroupName = HttpApiGroup.HttpApiGroup.Name<Groups>

/** The group named `G`. */
export type Group<G extends GroupName> = HttpApiGroup.HttpApiGroup.WithName<Groups, G>

/** The names of the endpoints of group `G`. */
export type EndpointName<G extends GroupName> = HttpApiEndpoint.HttpApiEndpoint.Name<
  HttpApiGroup.HttpApiGroup.Endpoints<Group<G>>
>

/** The endpoint `E` of group `G`. */
export type Endpoint<G extends GroupName, E extends EndpointName<G>> = HttpApiEndpoint.HttpApiEndpoint.WithName<
  HttpApiGroup.HttpApiGroup.Endpoints<Group<G>>,
  E
>
