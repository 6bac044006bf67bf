/**
 * Picking and shipping (extension, DECISIONS §7): the open pick tasks, their confirmation (with
 * short picks), and shipping a picked order.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  ConfirmTaskRequest,
  OrderIdFromPath,
  OrderNotFound,
  OrderNothingPicked,
  OrderNotPacked,
  OrderShipped,
  OrderTasksOpen,
  OrderUnitsOpen,
  PreAdviceExists,
  RecordIdFromPath,
  TaskNotFound,
  TaskQuery,
  TransferSkuMissing
} from "@wms/core"
import { Schema } from "effect"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { Task } from "../waves/WavesApi.js"

export class PickingApi extends HttpApiGroup.make("picking")
  .add(
    HttpApiEndpoint.get("tasks", "/tasks")
      .annotate(OpenApi.Summary, "List pick tasks")
      .setUrlParams(TaskQuery)
      .addSuccess(Schema.Array(Task))
      .annotate(
        OpenApi.Description,
        "Extension. The scope's open pick tasks, by id, in the task shape of GET /waves/:id/tasks (a task's id is " +
          "its claim's id; a task is open while its claim is `allocated`). Optional filters `wave_id` (an integer, " +
          "else 400) and `sku_id`, and the list window `limit`/`offset`."
      )
  )
  .add(
    HttpApiEndpoint.post("confirm")`/tasks/${HttpApiSchema.param("id", RecordIdFromPath)}/confirm`
      .annotate(OpenApi.Summary, "Confirm pick task")
      // An empty body confirms the whole quantity, like `{}`.
      .setPayload(Schema.NullOr(ConfirmTaskRequest))
      .addError(onTheWire(TaskNotFound))
      .annotate(
        OpenApi.Description,
        "Extension. Body (optional) `{qty?, reallocate?, reason_code?}`: the quantity picked, an integer from 0 to " +
          "the task's quantity " +
          "(default: all of it). In one transaction the content's qty and qty_allocated fall by the task's " +
          "quantity, the order line's qty_picked rises by qty, a Pick transaction (from the content's location to " +
          "the task's to_loc_id, notes `Task <id>`) records it, and the task is closed: its claim becomes `picked` " +
          "with qty = the quantity picked. A qty below the task's is a short pick: the rest is written off the " +
          "content as a Lost transaction and a lost-and-found item (notes `Short pick of task <id>`, created_by the " +
          "user) and stays unpicked on the line. qty 0 is a full short pick: nothing is picked and the claim, " +
          "holding nothing, is removed like a released one (with its claimset when that holds no other claim). Then " +
          "the order becomes In Progress (17), or Picked (18) when none of its tasks is open (Released (14) again " +
          "when nothing of it was picked, so it may be deleted or waved again); the claimset `picked` when none of " +
          "its claims is open; the wave In Progress (17), or Complete (20) when none of its tasks is open. A qty " +
          "over the task's: 400 `Invalid field qty: …`. Short picks and the site settings (`GET /sites/:id/settings`, " +
          "all off by default, when nothing here changes): with `reallocate` true, or absent and the setting " +
          "`reallocate_short_picks` on, the shortfall is claimed again in the same transaction from other stock of " +
          "the SKU and client by the wave's FEFO rule, leaving out the shorted content and stock at a location that " +
          "lets none out; the new tasks join the task's claimset and wave with `Allocate` transactions, and the order " +
          "stays In Progress until they are confirmed. With `backorders` on, what is not re-allocated (all of the " +
          "shortfall without re-allocation) is added to the line's `qty_backordered`, unless the order is left " +
          "Released with nothing picked (then it is waved again whole). With `count_on_short_pick` on, a short pick " +
          "with `reason_code` `Mispick`, `StockOut` or none opens a count of the task's location when that is a " +
          "managed location with no open count. `reason_code` (one of `Damaged`, `Mispick`, `Miscount`, `Found`, " +
          "`Theft`, `Expired`, `Other`, `StockOut`; another: 400) is kept on the Lost transaction. " +
          "A task that does not exist in the scope or is confirmed " +
          "already: 404 `Task with id <id> not found` (of two concurrent confirmations exactly one wins, the other " +
          "gets this 404). 204."
      )
  )
  .add(
    HttpApiEndpoint.post("ship")`/orders/${HttpApiSchema.param("id", OrderIdFromPath)}/ship`
      .annotate(OpenApi.Summary, "Ship order")
      .addError(onTheWire(OrderNotFound))
      .addError(onTheWire(OrderShipped))
      .addError(onTheWire(OrderTasksOpen))
      .addError(onTheWire(OrderNothingPicked))
      .addError(onTheWire(OrderNotPacked))
      .addError(onTheWire(OrderUnitsOpen))
      .addError(onTheWire(TransferSkuMissing))
      .addError(onTheWire(PreAdviceExists))
      .annotate(
        OpenApi.Description,
        "Extension. Ships a picked order: every line's qty_shipped becomes its qty_picked, a Shipment transaction " +
          "per picked claim (its content, qty picked, from and to the dock, notes `Shipment of order <id>`), the " +
          "order becomes Shipped (19), and an `order_shipped` event carries the order as GET /orders/:id then shows " +
          "it. When a line has `qty_backordered`, the same transaction makes a backorder order `<id>-B<n>` (where " +
          "<id> is the first order of a chain of backorders and <n> the next number free on the site): Released (14), " +
          "with the order's client, customer, carrier, dock and dates, `backorder_of` the first order's id, and a " +
          "line per backordered line (same line number and SKU, qty = qty_backordered); an `order_backordered` " +
          "event carries it. " +
          "Only an order with no open task and something picked ships: otherwise 409 `Order with OrderID <id> " +
          "still has open tasks`, `… has nothing picked`, or `… is already shipped`. With the site setting " +
          "`pack_before_ship` on (off by default), it ships only once every picked unit is in a shipping unit and " +
          "every shipping unit of the order is closed: otherwise 409 `Order <id> has <n> picked units not packed`, " +
          "then `Order <id> has <n> shipping units not closed` (a closed carton on an open pallet holds the ship " +
          "until the pallet closes). Shipping makes every shipping unit of the order Shipped (19). A missing " +
          "order: 404 `Order with OrderID <id> not found`. " +
          "A **transfer** order (spec: transfers between sites) ships the same way but writes `TransferOut` in place " +
          "of `Shipment` (notes `Transfer <order_id>`), and in the same transaction creates at its `to_site` the " +
          "pre-advice `TR-<site>-<order_id>`: no supplier, no client, status In Transit (26), one line per shipped " +
          "content with its `sku_id`, `qty`, `tag_id` and `expiry_date`. The stock is then on neither site until " +
          "received (`GET /transfers/in-transit`). A `transfer_shipped` event, at both sites, carries the order " +
          "(with its shipping units) in place of `order_shipped`. A SKU the destination no longer has: 409 `SKU " +
          "<sku_id> does not exist at site <site>, the transfer's destination`; a pre-advice of that id already at " +
          "the destination: 409 `PreAdvice with PreAdviceID <id> already exists`; nothing is written. 204."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Picking and shipping")
  .annotate(OpenApi.Description, "Open pick tasks, confirming picks, and shipping picked orders.")
{}
