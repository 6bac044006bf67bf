/**
 * Cycle counts (extension, warehouse cycle §3.5): counting a location while work goes on, with
 * approval of counts that are too far off.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  ApproveCountRequest,
  CountBelowTasked,
  CountNotFound,
  CountQuery,
  CountRecord,
  CountWrongState,
  LocationAlreadyCounted,
  LocationHasInbound,
  LocationNotFound,
  NewCountRequest,
  PlanCountsRequest,
  ReasonCodes,
  RecordCountRequest,
  RecordIdFromPath
} from "@wms/core"
import { Schema } from "effect"
import { returned } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const id = HttpApiSchema.param("id", RecordIdFromPath)

/** A count as `GET /counts` lists it: without its lines. */
const CountSummary = CountRecord.pipe(Schema.omit("lines"))

const notFound = "Unknown id: 404 `Count with id <id> not found`."
const wrongState = (allowed: string) => `A count that is not ${allowed}: 409 \`Count <id> is <status>\`.`
const reasons = ReasonCodes.map((code) => `\`${code}\``).join(", ")
const applying = "Applying, in one transaction: one `Count` transaction (notes `Count <id>`, the reason code) per " +
  "content whose quantity changes, by the signed variance; found stock becomes a new content (with the line's " +
  "tag, or a generated one); stock filling an empty content that Active holds cover gets a `Hold` row per hold; " +
  "a shortfall on allocated stock gives back the claims it leaves uncovered, newest " +
  "first (a `Deallocate` transaction each; their order lines keep their quantity and are short of allocation " +
  "until a new wave allocates them, or, as a short pick's shortfall is, claimed again at once from other stock with " +
  "the site setting `reallocate_short_picks` on and backordered on the line with `backorders` on); a content left with less than its open movement tasks carry: 409 `Content " +
  "<id> has <n> under movement tasks: confirm or cancel them before the count applies`. The location gets " +
  "`last_counted` and its status back; the count becomes Complete (20) and a `count_completed` event carries it."

export class CountsApi extends HttpApiGroup.make("counts")
  .add(
    HttpApiEndpoint.get("listCounts", "/counts")
      .setUrlParams(CountQuery)
      .addSuccess(Schema.Array(CountSummary))
      .annotate(
        OpenApi.Description,
        "The site's counts by id, every status unless `status` (a status id: 1 Open, 22 Counting, 23 Pending " +
          "Approval, 20 Complete, 21 Cancelled) says otherwise; optional filters `loc_id` and `zone` (the " +
          "location's), and `limit`/`offset`. The records of `GET /counts/:id` without their `lines`."
      )
  )
  .add(
    HttpApiEndpoint.post("createCount", "/counts")
      .annotate(OpenApi.Summary, "Create count")
      .setPayload(NewCountRequest)
      .addSuccess(CountRecord, { status: 201 })
      .annotate(ReadOnlyFields, CountRecord)
      .annotateContext(returned("/counts", "id"))
      .addError(onTheWire(LocationNotFound))
      .addError(onTheWire(LocationAlreadyCounted))
      .annotate(
        OpenApi.Description,
        "Body `{loc_id, sku_id?, blind?, assignee?, reason?}`: an Open (1) count of a managed location (none: 404 " +
          "`Location with id <loc_id> not found`), or of one SKU in it (unknown: 400 `Invalid field sku_id: SKU " +
          "<sku_id> does not exist`); 201 with the count. A location has at most one count that is Open, Counting " +
          "or Pending Approval, also across processes: else 409 `Location <loc_id> is already being counted`. " +
          "`blind: true` hides `expected`, `in_flight` and `variance` from non-admins until Complete; it cannot " +
          "change later."
      )
  )
  .add(
    HttpApiEndpoint.post("planCounts", "/counts/plan")
      .annotate(OpenApi.Summary, "Plan counts")
      .setPayload(Schema.NullOr(PlanCountsRequest))
      .addSuccess(Schema.Array(CountRecord), { status: 201 })
      .annotate(
        OpenApi.Description,
        "Body (optional) `{zone?, loc_type?, max?}`: Open counts of up to `max` (1 to 1000, default 10) managed " +
          "locations of the zone and type, those never counted first, then by oldest `last_counted`, then by " +
          "`loc_id`; a location with a count that is not over is left out. 201 with the counts (`[]` when none)."
      )
  )
  .add(
    HttpApiEndpoint.get("getCount")`/counts/${id}`
      .addSuccess(CountRecord)
      .addError(onTheWire(CountNotFound))
      .annotate(
        OpenApi.Description,
        "One count: `loc_id`, `sku_id` (null: the whole location), `blind`, `assignee`, `reason`, `status` and " +
          "`status_id`, `count_index` (1, +1 per recount), `reason_code` (once applied), `created_by`, " +
          "`creation_date`, `release_date`, `completion_date`, `approved_by`, and `lines` (none before release): " +
          "per SKU and tag, `expected` (at release), `in_flight` (what picks and moves tasked before the release " +
          "took since), `qty_counted` (null until recorded; a snapshot line no record names counts 0), " +
          "`variance` = qty_counted − (expected + in_flight) and `within_threshold`. On a blind count a non-admin " +
          `gets no \`expected\`, \`in_flight\`, \`variance\` or \`within_threshold\` until it is Complete. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.post("releaseCount")`/counts/${id}/release`
      .annotate(OpenApi.Summary, "Release count")
      .addError(onTheWire(CountNotFound))
      .addError(onTheWire(CountWrongState))
      .addError(onTheWire(LocationNotFound))
      .addError(onTheWire(LocationHasInbound))
      .annotate(
        OpenApi.Description,
        "Freezes the location: its status becomes `Counting` (no allocation, no new movement task from or to " +
          "it, no receipt or adjustment at it) and what each content there (of the SKU, for a SKU count) holds " +
          "is its line's `expected`. Picks and moves tasked before keep going: each confirmation is recorded as " +
          "the count's `in_flight`. Open movement tasks bound for the location: 409 `Location <loc_id> has open " +
          `inbound movement tasks\`. The count becomes Counting (22). ${wrongState("Open")} ${notFound} 204.`
      )
  )
  .add(
    HttpApiEndpoint.post("recordCount")`/counts/${id}/record`
      .annotate(OpenApi.Summary, "Record count")
      .setPayload(RecordCountRequest)
      .addError(onTheWire(CountNotFound))
      .addError(onTheWire(CountWrongState))
      .addError(onTheWire(CountBelowTasked))
      .annotate(
        OpenApi.Description,
        "Body `{lines: [{sku_id, qty_counted, tag_id?, expiry_date?}]}` (1 to 10000 lines). A line replaces the " +
          "one recorded for the same SKU and tag in this count index (the last write wins, so two handhelds may " +
          "record); one without a tag counts the SKU's stock whose tag no other line names; a tag not at the " +
          "location is found stock. A SKU the site does not have: 400 `Invalid field lines: SKU <sku_id> does " +
          "not exist`; one SKU and tag twice: 400 `Invalid field lines: SKU <sku_id> with tag <tag_id> is named " +
          "twice`; another SKU on a SKU count: 400 `Invalid field lines: count <id> covers SKU <sku_id> only`. " +
          "When every line is within the site's `count_variance_threshold` (`GET /sites/:id/settings`; none set: " +
          "always), the count applies at once with reason code `Miscount`; else it becomes Pending Approval (23) " +
          `and a \`count_pending_approval\` event carries it. ${applying} ${
            wrongState("Counting or Pending Approval")
          } ` +
          `${notFound} 204.`
      )
  )
  .add(
    HttpApiEndpoint.post("approveCount")`/counts/${id}/approve`
      .annotate(OpenApi.Summary, "Approve count")
      .setPayload(ApproveCountRequest)
      .addError(onTheWire(CountNotFound))
      .addError(onTheWire(CountWrongState))
      .addError(onTheWire(CountBelowTasked))
      .annotate(
        OpenApi.Description,
        `Admin only (403 \`Admin rights required\`). Body \`{reason_code}\`, one of ${reasons} (another: 400 ` +
          "`Invalid field reason_code: must be one of …`). Applies a Pending Approval count with that reason, " +
          `against the in-flight figures at this moment. ${applying} ${wrongState("Pending Approval")} ${notFound} 204.`
      )
  )
  .add(
    HttpApiEndpoint.post("recountCount")`/counts/${id}/recount`
      .annotate(OpenApi.Summary, "Recount count")
      .addError(onTheWire(CountNotFound))
      .addError(onTheWire(CountWrongState))
      .annotate(
        OpenApi.Description,
        "A Pending Approval count is counted again: `count_index` + 1, a new snapshot of what the location holds " +
          "now, no line recorded; the count is Counting (22) again and the location stays `Counting`. " +
          `${wrongState("Pending Approval")} ${notFound} 204.`
      )
  )
  .add(
    HttpApiEndpoint.del("cancelCount")`/counts/${id}`
      .annotate(OpenApi.Summary, "Cancel count")
      .addError(onTheWire(CountNotFound))
      .addError(onTheWire(CountWrongState))
      .annotate(
        OpenApi.Description,
        "An Open, Counting or Pending Approval count becomes Cancelled (21): no transaction is written, and the " +
          `location gets back the status it had at release. ${wrongState("Open, Counting or Pending Approval")} ` +
          `${notFound} 204.`
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Counts")
  .annotate(
    OpenApi.Description,
    "Extension. Cycle counts of one managed location (or one SKU in it), for users of the whole site (a client's " +
      "user: 403 `Counts are for users of the whole site`). Statuses: 1 Open → release → 22 Counting → record → " +
      "20 Complete, or 23 Pending Approval → approve → 20 Complete, or recount → 22 Counting; Open, Counting and " +
      "Pending Approval → delete → 21 Cancelled. Reason codes of applied counts and of adjustments: " +
      `${reasons}.`
  )
{}
