/**
 * The records the invariant checkers read, as the API shows them: contents, ledger rows, claims,
 * movement tasks, locations, SKU measures, pick faces and counts, each with only the fields a
 * checker needs, so a test may hand-make them.
 */
import type { CountLineRecord, CountRecord } from "../counts/Count.js"
import type { LocationRecord, LocationStatus, LocationType } from "../locations/Location.js"
import type { MovementTaskRecord } from "../movement/MovementTask.js"
import type { TransactionType } from "../stock/Stock.js"

/** A content as the inventory overview shows it: what the checkers read. */
export interface ContentView {
  readonly content_id: number
  readonly sku_id: string
  readonly client_id: string | null
  readonly qty: number
  readonly qty_allocated: number
  readonly qty_tasked_from: number
  readonly expiry_date: string | null
  readonly created_datetime: string
}

/** A content with where it lies and its tag, as the overview shows it: what location checks read. */
export interface PlacedContentView extends ContentView {
  readonly loc_id: string
  readonly tag_id: string
}

/** A ledger transaction as `GET /inventory/transactions` shows it. */
export interface TransactionView {
  readonly content_id: number
  /** The source of a movement (Putaway, Move, Replenish); absent or null on the other types. */
  readonly from_content_id?: number | null
  readonly transaction_type: TransactionType
  readonly qty: number
  /** `Count <id>` on the rows a count wrote; absent on rows made by hand before counts existed. */
  readonly notes?: string | null
}

/** A transaction with its SKU, owner and destination, as the API shows it: what conservation and capacity read. */
export interface LedgerRowView extends TransactionView {
  readonly from_content_id: number | null
  readonly sku_id: string
  readonly client_id: string | null
  readonly to_loc_id: string
}

/** A claim as `GET /waves/:id/claims` shows it. */
export interface ClaimView {
  readonly content_id: number
  readonly qty: number
  readonly status: string
}

/**
 * A movement task as `GET /movement-tasks` shows it. Its type and source location are optional,
 * as tasks made by hand before replenishment and counts were checked did without them.
 */
export type MovementTaskView =
  & Pick<MovementTaskRecord, "id" | "content_id" | "quantity" | "status_id" | "sku_id" | "tag_id" | "to_loc_id">
  & Partial<Pick<MovementTaskRecord, "task_type" | "from_loc_id">>

/** A managed location's status, as `GET /locations` shows it. */
export interface LocationStatusView {
  readonly loc_id: string
  readonly status: LocationStatus
}

/** A managed location as `GET /locations` shows it: its limits and its occupancy figures. */
export type LocationView = Pick<
  LocationRecord,
  | "loc_id"
  | "status"
  | "max_tags"
  | "max_weight"
  | "max_volume"
  | "qty_on_hand"
  | "tags"
  | "weight"
  | "volume"
  | "inbound_qty"
  | "inbound_tags"
  | "over_capacity"
>

/** A managed location's status and type: what the checks of replenishment sources read. */
export interface LocationKindView extends LocationStatusView {
  readonly loc_type: LocationType
}

/** What a SKU weighs and takes up per unit (null: nothing), as `GET /skus/:id` shows it. */
export interface SkuMeasuresView {
  readonly sku_id: string
  readonly each_weight: number | null
  readonly each_volume: number | null
}

/** The records the invariants are checked on, before movement tasks and locations existed. */
export interface InvariantState {
  readonly contents: ReadonlyArray<ContentView>
  readonly transactions: ReadonlyArray<TransactionView>
  readonly claims: ReadonlyArray<ClaimView>
}

/** A site as its API shows it (`snapshot`): stock, ledger, claims, movement tasks of every status, locations and SKUs. */
export interface WarehouseSnapshot extends InvariantState {
  readonly contents: ReadonlyArray<PlacedContentView>
  readonly transactions: ReadonlyArray<LedgerRowView>
  readonly tasks: ReadonlyArray<MovementTaskView>
  readonly locations: ReadonlyArray<LocationView>
  readonly skus: ReadonlyArray<SkuMeasuresView>
}

/** A pick-face setting with its face's stock, as `GET /pick-faces` shows it. */
export interface PickFaceView {
  readonly sku_id: string
  readonly loc_id: string
  readonly min_qty: number
  readonly max_qty: number
  readonly replenish_multiple: number | null
  readonly level: number
}

/** A line of a count as an admin sees it through `GET /counts/:id`. */
export type CountLineView = Pick<
  CountLineRecord,
  "sku_id" | "tag_id" | "expected" | "in_flight" | "qty_counted" | "variance" | "within_threshold"
>

/** A count as an admin sees it through `GET /counts/:id`: its state, approver and the lines of its last index. */
export interface CountView
  extends Pick<CountRecord, "id" | "loc_id" | "sku_id" | "status_id" | "count_index" | "approved_by">
{
  readonly lines: ReadonlyArray<CountLineView>
}

/** An order with its lines as `GET /orders/:id` shows it: what the demand of short picks reads. */
export interface OrderView {
  readonly order_id: string
  readonly order_status: { readonly id: number }
  /** On a backorder order only: the first order of its chain. */
  readonly backorder_of?: string
  readonly lines: ReadonlyArray<{
    readonly line: number
    readonly qty: number
    readonly qty_picked: number
    readonly qty_shipped: number
    /** Only on a line a short pick backordered some of. */
    readonly qty_backordered?: number
  }>
}

/**
 * A site with pick faces and counts as its API shows it (`snapshot`): a `WarehouseSnapshot` whose
 * locations name their type, with the pick-face settings, every count and, where read, every
 * order with its lines.
 */
export interface CycleSnapshot extends WarehouseSnapshot {
  readonly locations: ReadonlyArray<LocationView & LocationKindView>
  readonly faces: ReadonlyArray<PickFaceView>
  readonly counts: ReadonlyArray<CountView>
  readonly orders?: ReadonlyArray<OrderView>
}
