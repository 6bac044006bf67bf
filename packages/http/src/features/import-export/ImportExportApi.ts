/**
 * Bulk import and export (extension): every kind of master data, orders and pre-advices with their
 * lines, and stock, as CSV or NDJSON (`bulk/`). The import's body is read as a stream
 * (`StreamedBody`), not as one JSON value: its size has no limit, and a file of any length is
 * written row by row in bounded memory.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Context, Effect, Schema } from "effect"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { StreamedBody } from "../../api/StreamedBody.js"
import { formats, isKind, type Kind, kinds, mediaTypes } from "./Kinds.js"
import { ImportReport, maxListedErrors } from "./Report.js"

/** A kind the path names that is none of `kinds`: 404, as a route that does not exist. */
export class UnknownKind extends Schema.TaggedError<UnknownKind>()("UnknownKind", { kind: Schema.String }) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Unknown kind ${this.kind}: the kinds are ${kinds.join(", ")}`
  }
}

/** The kind a path or command line names; `UnknownKind` for any other. */
export const kindOf = (name: string): Effect.Effect<Kind, UnknownKind> =>
  isKind(name) ? Effect.succeed(name) : Effect.fail(new UnknownKind({ kind: name }))

const kind = HttpApiSchema.param(
  "kind",
  Schema.String.annotations({ jsonSchema: { type: "string", enum: [...kinds] } })
)

type Json = any

const textBody = (description: string) => ({
  content: Object.fromEntries(
    formats.map((format) => [mediaTypes[format], { schema: { type: "string", description } }])
  )
})

/** The import's body in the OpenAPI document: CSV or NDJSON, which the endpoint reads itself. */
const documentFile = (operation: Json): Json => ({
  ...operation,
  requestBody: { required: true, ...textBody("The file: CSV with a header row, or NDJSON") }
})

/** The export's answer in the OpenAPI document, in either format. */
const documentExport = (operation: Json): Json => ({
  ...operation,
  responses: {
    ...operation.responses,
    200: { description: "The records, in the format asked for", ...textBody("The records") }
  }
})

const rows = "A CSV has a header row naming the fields of the body that writes one record (as the JSON body " +
  "of that endpoint names them); a column the body does not have is ignored. A cell is read as its field's " +
  "type: a number, `true` or `false`, or text; an empty cell leaves the field out. The rows of an order, a " +
  "pre-advice or a return are its lines, one row each, the header's fields repeated on each and the line's fields in " +
  "`lines.<field>` columns (`lines.sku_id`, `lines.qty`, `lines.line`, …): consecutive rows with the same " +
  "`order_id` (`pre_advice_id`, `return_id`) are one record, its header fields taken from its first row, and a row whose " +
  "`lines.` cells are all empty adds no line. An NDJSON line is one JSON body, as the single-record endpoint " +
  "takes it (an order with its `lines` array); blank lines are skipped."

const what = "What a record does, as the endpoint that writes one: `skus` `PUT /skus/:id` of its `sku_id` " +
  "(creates the SKU or replaces every writable field); `customers`, `suppliers`, `carriers` `PUT /<kind>/:id` " +
  "when the row has an `id`, else a create; `orders`, `preadvices` a create with its lines; `stock` " +
  "`POST /inventory/adjustments` (`content_id`, or `sku_id`, `loc_id`, `tag_id`, `expiry_date`; `qty`; `notes`); " +
  "`holds` `POST /holds`; " +
  "`returns` `POST /returns`, an authorization with its lines (`lines.order_line`, `lines.qty`; receipts are " +
  "not imported). In a CSV the rows of one return share its `return_id`: a return to be given a generated " +
  "id is written as NDJSON, or as one CSV row."

export class ImportExportApi extends HttpApiGroup.make("bulk")
  .add(
    HttpApiEndpoint.post("importRecords")`/import/${kind}`
      .annotate(OpenApi.Summary, "Import records")
      .annotate(StreamedBody, true)
      .annotateContext(Context.make(OpenApi.Transform, documentFile))
      .addSuccess(ImportReport)
      .addError(onTheWire(UnknownKind))
      .annotate(
        OpenApi.Description,
        "Writes the records of a file, each in its own transaction, as the endpoint that writes one record " +
          "would, with the same rules and messages: a record is written whole or not at all, and a bad record " +
          "leaves the others be. `Content-Type` is `text/csv` or `application/x-ndjson` (400 otherwise, as for " +
          "any body of another type). The body has no size limit: it is read as it is written, in bounded " +
          `memory. ${rows} ${what} Answers 200 with \`{rows, written, failed, errors}\`, whatever the rows ` +
          "did: `errors` has `{row, field, message}` for each row not written, `row` being the line of the " +
          "file where the row starts (the CSV header is line 1), `field` the CSV column or JSON path at fault " +
          "(`lines.sku_id` for a line's) or null, and `message` what the single-record endpoint answers; the " +
          "other rows of an order or pre-advice that fails get `Not written: row <n>, of the same <field>, " +
          `fails\`. The list stops at the first ${maxListedErrors} errors; \`failed\` counts every row not ` +
          "written. A file that stops being readable (a CSV quote never closed, a row over 1 MiB) ends the " +
          "import there, with an error on that row; a CSV header that names a column twice: 400, nothing " +
          "written. `Idempotency-Key` is refused (400): the rows are written as they are read, so a retry " +
          "cannot be told from a second import."
      )
  )
  .add(
    HttpApiEndpoint.get("exportRecords")`/export/${kind}`
      .annotate(OpenApi.Summary, "Export records")
      .setUrlParams(Schema.Struct({ format: Schema.optional(Schema.Literal(...formats)) }))
      .annotateContext(Context.make(OpenApi.Transform, documentExport))
      .addSuccess(HttpApiSchema.Text({ contentType: mediaTypes.csv }))
      .addError(onTheWire(UnknownKind))
      .annotate(
        OpenApi.Description,
        "The records of the scope, streamed, as GET shows them: a SKU as `GET /skus/:id`, customers, " +
          "suppliers and carriers as their lists, an order with its lines as `GET /orders/:id`, a pre-advice " +
          "as `GET /preadvices/:id`, stock as `GET /inventory/overview`, holds as `GET /holds/:id` (every hold, Active then Released), a return as `GET /returns/:id` (every " +
          "status, with its lines' authorized, received and disposed-of quantities). `format=csv` or `format=ndjson`; " +
          "without it the first of `text/csv` and `application/x-ndjson` that `Accept` names, else CSV. A CSV " +
          "has a header row; a nested object's fields are columns `<field>.<field>` (`customer.id`), an empty " +
          "cell is null, and an order or pre-advice has a row per line (`lines.<field>` columns) with its " +
          "header's fields repeated, or one row with empty line cells when it has no lines. An NDJSON line is " +
          "one record's JSON. The CSV of a kind can be imported again: columns the import does not take are " +
          "ignored (an order's `customer.id` is shown, `customer_id` is imported; a return's lines show " +
          "`lines.qty_authorized`, an import takes `lines.qty`)."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Import and export")
  .annotate(
    OpenApi.Description,
    "Extension. Master data, orders, pre-advices, stock, holds and returns in bulk, as CSV or NDJSON, in the scope of the " +
      "`site` header and with the rights of the caller, as the single-record endpoints."
  )
{}
