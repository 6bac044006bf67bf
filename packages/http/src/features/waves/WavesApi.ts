/**
 * Waves (§4.6, §2.7): creating a wave from a definition, starting it (allocation and pick tasks),
 * reading it and its orders, claimsets, claims and tasks, and deleting it.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  CreateWaveRequest,
  ListWindow,
  RecordIdFromPath,
  StartWaveRequest,
  WaveDefinitionNotFound,
  WaveNotFound,
  WavePickingStarted,
  WaveStarted
} from "@wms/core"
import { Schema } from "effect"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"

const NullableText = Schema.NullOr(Schema.String)

export const WaveRecord = Schema.Struct({
  id: Schema.Number,
  status: Schema.String,
  status_id: Schema.Number,
  criterium: Schema.String,
  criterium_id: Schema.Number,
  value: NullableText,
  picktypedescription: Schema.String,
  pick_type: Schema.Number,
  autostart: Schema.Boolean,
  site_id: Schema.String
})

export const WaveDetail = Schema.Struct({
  ...WaveRecord.fields,
  order_count: Schema.Number,
  qty_ordered: Schema.Number,
  qty_allocated: Schema.Number,
  qty_short: Schema.Number
})

export const WaveOrder = Schema.Struct({
  order_id: Schema.String,
  order_date: NullableText,
  status: Schema.String,
  customer: NullableText,
  ship_by_date: NullableText,
  carrier: NullableText,
  ship_dock: NullableText
})

export const Claimset = Schema.Struct({
  id: Schema.Number,
  claimset_break: Schema.String,
  status: Schema.Literal("released", "picked"),
  pick_type: Schema.String,
  claim_count: Schema.Number,
  total_qty: Schema.Number
})

export const Claim = Schema.Struct({
  id: Schema.Number,
  content_id: Schema.Number,
  sku_id: Schema.String,
  qty: Schema.Number,
  order_id: Schema.String,
  line_id: Schema.Number,
  claimset: Schema.Number,
  status: Schema.Literal("allocated", "picked"),
  loc_id: Schema.String
})

export const Task = Schema.Struct({
  id: Schema.Number,
  quantity: Schema.Number,
  tag_id: Schema.String,
  from_loc_id: Schema.String,
  to_loc_id: Schema.String,
  final_loc_id: Schema.String,
  sku_id: Schema.String,
  creation_date: Schema.String,
  wave_id: Schema.Number,
  claimset: Schema.Number
})

const id = HttpApiSchema.param("id", RecordIdFromPath)

export class WavesApi extends HttpApiGroup.make("waves")
  .add(
    HttpApiEndpoint.post("create", "/waves/create")
      .annotate(OpenApi.Summary, "Create wave")
      .setPayload(CreateWaveRequest)
      .addSuccess(Schema.Struct({ message: Schema.String, wave_id: Schema.Number }))
      .addError(onTheWire(WaveDefinitionNotFound))
      .annotate(
        OpenApi.Description,
        "Creates a wave from a definition, snapshotting its criterion, value and pick type, with every Released order of " +
          "the scope that matches and is in no other wave that is not Complete. Messages: `Wave met id <id> is aangemaakt`, " +
          "`… wordt aangemaakt en automatisch gestart` (autostart), `… is aangemaakt maar bevat geen orders` (an autostart " +
          "wave without orders is not started). A missing definition: 404 `Wave definitie met id <id> niet gevonden`."
      )
  )
  .add(
    HttpApiEndpoint.post("start", "/waves/start")
      .annotate(OpenApi.Summary, "Start wave")
      .setPayload(StartWaveRequest)
      .addSuccess(Schema.Struct({ message: Schema.String }))
      .addError(onTheWire(WaveNotFound))
      .addError(onTheWire(WaveStarted))
      .annotate(
        OpenApi.Description,
        "Allocates, in one transaction, every line of the wave's Released orders (by ship_by_date, order_date, order_id) " +
          "from available, unexpired stock of the same SKU and client, first expiry first out, then oldest, then lowest " +
          "content id. Each allocation of one line from one content is a claim, an Allocate transaction and a pick task " +
          "(task id = claim id) to the order's ship dock or the site's default dock (`DOCK`). Orders become Allocated, " +
          "Partially Allocated, or stay Released when no stock was found; the wave becomes Allocated. `Wave met id <id> is " +
          "gestart`, or `Geen orders in deze wave`. Started already: 409 `Wave met id <id> is al gestart`; missing: 404 " +
          "`Wave met id <id> niet gevonden`."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/waves").setUrlParams(ListWindow).addSuccess(Schema.Array(WaveRecord))
      .annotate(OpenApi.Summary, "List waves")
  )
  .add(
    HttpApiEndpoint.get("get")`/waves/${id}`
      .annotate(OpenApi.Summary, "Get wave")
      .addSuccess(WaveDetail)
      .addError(onTheWire(WaveNotFound))
      .annotate(OpenApi.Description, "The wave with order_count, qty_ordered, qty_allocated and qty_short.")
  )
  .add(
    HttpApiEndpoint.del("remove")`/waves/${id}`
      .annotate(OpenApi.Summary, "Delete wave")
      .addError(onTheWire(WaveNotFound))
      .addError(onTheWire(WavePickingStarted))
      .annotate(
        OpenApi.Description,
        "Releases all the wave's allocation (Deallocate transactions, claims and tasks removed, orders back to Released) " +
          "and removes the wave. 204. Once picking has started: 409."
      )
  )
  .add(
    HttpApiEndpoint.get("orders")`/waves/${id}/orders`
      .annotate(OpenApi.Summary, "List wave orders")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(WaveOrder))
      .addError(onTheWire(WaveNotFound))
  )
  .add(
    HttpApiEndpoint.get("claimsets")`/waves/${id}/claimsets`
      .annotate(OpenApi.Summary, "List wave claimsets")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(Claimset))
      .addError(onTheWire(WaveNotFound))
      .annotate(
        OpenApi.Description,
        "Claimsets group claims by pick type: per order (claimset_break = order id), per wave (wave id), per customer " +
          "(customer name, `(geen klant)` without one), per carrier (carrier name, `(geen vervoerder)` without one)."
      )
  )
  .add(
    HttpApiEndpoint.get("claims")`/waves/${id}/claims`
      .annotate(OpenApi.Summary, "List wave claims")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(Claim))
      .addError(onTheWire(WaveNotFound))
  )
  .add(
    HttpApiEndpoint.get("tasks")`/waves/${id}/tasks`
      .annotate(OpenApi.Summary, "List wave tasks")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(Task))
      .addError(onTheWire(WaveNotFound))
      .annotate(OpenApi.Description, "The wave's open pick tasks; a task's id is its claim's id.")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Waves")
  .annotate(
    OpenApi.Description,
    "Waves of orders: created from a definition, started (allocated), and their claims and tasks."
  )
{}
