/**
 * Movement tasks (extension, warehouse cycle §3.2–3.3): putaway of received stock and internal
 * moves, each reserving its stock from creation until it is confirmed or cancelled.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  ConfirmMoveRequest,
  ContentFull,
  ContentHeld,
  ContentNotAtReceiving,
  ContentNotFound,
  ContentUnavailable,
  LocationFull,
  LocationStatusRefuses,
  MovementTaskClosed,
  MovementTaskNotFound,
  MovementTaskQuery,
  MovementTaskRecord,
  NewMoveRequest,
  PutawayRequest,
  RecordIdFromPath
} from "@wms/core"
import { Schema } from "effect"
import { returned } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const id = HttpApiSchema.param("id", RecordIdFromPath)

const notFound = "Unknown in the scope: 404 `Movement task with id <id> not found`."
const closed = "Complete or Cancelled already: 409 `Movement task <id> is <Complete|Cancelled>` (of two concurrent " +
  "closings exactly one wins, the other gets this 409)."
const gates = "The source location must let stock out (not `Blocked Out`, `Blocked` or `Counting`) and the " +
  "destination take it in (not `Blocked In`, `Blocked` or `Counting`): else 409 `Location <loc_id> is <status>`. A " +
  "managed destination with a capacity must have room for the stock on hand plus its Open inbound tasks plus this " +
  "one: else 409 `Location <loc_id> has no room for <qty> of <sku_id>`. Stock an Active hold covers moves only to a " +
  "`Quarantine` location: else 409 `Content <id> is held by hold <hold_id>: it may move only to a Quarantine " +
  "location` (a task made before the hold still goes to its planned destination)."

export class MovementTasksApi extends HttpApiGroup.make("movementTasks")
  .add(
    HttpApiEndpoint.get("listMovementTasks", "/movement-tasks")
      .setUrlParams(MovementTaskQuery)
      .addSuccess(Schema.Array(MovementTaskRecord))
      .annotate(
        OpenApi.Description,
        "The scope's movement tasks by id: the Open ones unless `status_id` says 20 (Complete) or 21 " +
          "(Cancelled). Optional filters `task_type` (`Putaway`, `Move`, `Replenish`), `sku_id`, `from_loc_id`, " +
          "`to_loc_id`, and `limit`/`offset`. A task: `quantity` of `sku_id` and `tag_id` on the source content " +
          "`content_id` at `from_loc_id`, to carry to `to_loc_id` (`final_loc_id` the same; once Complete, both " +
          "where it went); `creation_date` `YYYY-MM-DD` and `creation_datetime` `YYYY-MM-DD HH:mm:ss` in the " +
          "service's time zone; `status` and `status_id` 1 Open, 20 Complete, 21 Cancelled; `created_by`; `reason` " +
          "or null."
      )
  )
  .add(
    HttpApiEndpoint.post("createMovementTask", "/movement-tasks")
      .annotate(OpenApi.Summary, "Create move task")
      .setPayload(NewMoveRequest)
      .addSuccess(MovementTaskRecord, { status: 201 })
      .annotate(ReadOnlyFields, MovementTaskRecord)
      .annotateContext(returned("/movement-tasks", "id"))
      .addError(onTheWire(ContentNotFound))
      .addError(onTheWire(ContentUnavailable))
      .addError(onTheWire(LocationFull))
      .addError(onTheWire(ContentHeld))
      .addError(onTheWire(LocationStatusRefuses))
      .annotate(
        OpenApi.Description,
        "An Open Move task: 201 with the task. The source is `{content_id}`, or `{sku_id, from_loc_id, tag_id?}`: " +
          "the first content of that SKU (and tag) at that location, in FEFO order, whose available stock covers " +
          "`qty` (neither content_id nor sku_id: 400 `Missing field content_id`; sku_id without from_loc_id: 400 " +
          "`Missing field from_loc_id`; no stock of it there: 400 `Invalid field from_loc_id: no stock of SKU <sku> " +
          "at <loc>`). `qty` must not exceed the source's available stock (qty − qty_allocated − qty_tasked_from: " +
          "allocated stock is not movable), else 409 `Content <id> has <available> available, <qty> asked`, naming " +
          "the content with the most available when found by SKU. `to_loc_id` the source's location: 400 `Invalid " +
          `field to_loc_id: is where the stock already is\`. ${gates} The task reserves its quantity on the source ` +
          "(qty_tasked_from, a Task transaction) until it is confirmed or cancelled. An unknown content_id: 404 " +
          "`Inventory content with contentId <id> not found`."
      )
  )
  .add(
    HttpApiEndpoint.get("getMovementTask")`/movement-tasks/${id}`
      .addSuccess(MovementTaskRecord)
      .addError(onTheWire(MovementTaskNotFound))
      .annotate(OpenApi.Description, `One movement task, whatever its status. ${notFound}`)
  )
  .add(
    HttpApiEndpoint.post("confirmMovementTask")`/movement-tasks/${id}/confirm`
      .annotate(OpenApi.Summary, "Confirm movement task")
      // An empty body confirms the whole quantity to the planned destination, like `{}`.
      .setPayload(Schema.NullOr(ConfirmMoveRequest))
      .addError(onTheWire(MovementTaskNotFound))
      .addError(onTheWire(MovementTaskClosed))
      .addError(onTheWire(LocationFull))
      .addError(onTheWire(ContentHeld))
      .addError(onTheWire(LocationStatusRefuses))
      .addError(onTheWire(ContentFull))
      .annotate(
        OpenApi.Description,
        "Body (optional) `{qty?, to_loc_id?}`. In one transaction `qty` (default: the task's quantity; more: 400 " +
          "`Invalid field qty: must be at most the task's quantity, <n>`) leaves the source content and its " +
          "reservation, and goes to the content of the same SKU, client, tag and expiry at the destination (a new " +
          "one keeping the source's tag, expiry and creation time when there is none); one transaction of the " +
          "task's type (Putaway, Move, Replenish; content_id the destination, from_content_id the source) records " +
          "it, and the task becomes Complete (20) with `to_loc_id` and `final_loc_id` where the stock went. A qty " +
          "below the task's releases the rest on the source (an Untask transaction). A `to_loc_id` other than the " +
          "planned one must take stock in and have room (409 `Location <loc_id> is <status>` / `… has no room for " +
          `<qty> of <sku_id>\`). A source being counted (\`Counting\`) lets the task finish: it was made before the ` +
          `count's release, and the count records it in flight. ${closed} ${notFound} 204.`
      )
  )
  .add(
    HttpApiEndpoint.del("cancelMovementTask")`/movement-tasks/${id}`
      .annotate(OpenApi.Summary, "Cancel movement task")
      .addError(onTheWire(MovementTaskNotFound))
      .addError(onTheWire(MovementTaskClosed))
      .annotate(
        OpenApi.Description,
        `An Open task becomes Cancelled (21): its reservation is released (an Untask transaction). ${closed} ` +
          `${notFound} 204.`
      )
  )
  .add(
    HttpApiEndpoint.post("createPutawayTasks", "/putaway-tasks")
      .annotate(OpenApi.Summary, "Create putaway tasks")
      .setPayload(PutawayRequest)
      .addSuccess(Schema.Array(MovementTaskRecord), { status: 201 })
      .addError(onTheWire(ContentNotFound))
      .addError(onTheWire(ContentNotAtReceiving))
      .addError(onTheWire(ContentHeld))
      .addError(onTheWire(LocationStatusRefuses))
      .annotate(
        OpenApi.Description,
        "Body `{content_id}`: Putaway tasks for the content's available stock, 201 with the tasks made (`[]` when " +
          "no location has room: the stock stays where it is, untasked). The content must be at a receiving " +
          "location (a managed `Receiving` location, or the site's receiving location, `RECEIVING`, unmanaged): " +
          "else 409 `Content <id> is at <loc_id>, not at a receiving location`; at one that lets no stock out: 409 " +
          "`Location <loc_id> is <status>`. Targets, deterministically: while the rest is at least the SKU's " +
          "`qty_on_full_pallet` (when above 0) one task per full pallet, then one task for the rest; each goes to " +
          "the SKU's `preferred_putaway_location` when that is managed, takes stock in and has room, else to the " +
          "first `Storage` location by (`sequence`, `loc_id`), in the preferred location's zone first, that takes " +
          "stock in, has room (counting the tasks planned before it, a full pallet as one more tag), is not " +
          "dedicated to another client and holds no other SKU of another client. An unknown content: 404."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Movement tasks")
  .annotate(
    OpenApi.Description,
    "Extension. Stock to carry from one location to another: putaway of received stock, and internal moves. " +
      "A movement task has its own id, apart from pick tasks (whose id is their claim's). Statuses: 1 Open, 20 " +
      "Complete, 21 Cancelled. While Open, its quantity is reserved on the source (qty_tasked_from) and counts " +
      "as inbound at the destination."
  )
{}
