/**
 * The invariant checkers of pick-face replenishment, pure: each compares the movement tasks
 * before an operation with the site after it, as the API shows them (`Views.ts`, or hand-made
 * records of the same shape), and returns one line per violation.
 */
import { letsStockOut } from "../locations/Location.js"
import { available } from "../stock/Stock.js"
import { comesFirst } from "./Checkers.js"
import type { LocationKindView, MovementTaskView, PickFaceView, PlacedContentView } from "./Views.js"

const faceOf = (task: MovementTaskView) => JSON.stringify([task.sku_id, task.to_loc_id])

/** The Replenish tasks among `after` that `before` lacks: the ones the operation opened. */
export const newReplenishments = (
  before: ReadonlyArray<MovementTaskView>,
  after: ReadonlyArray<MovementTaskView>
): ReadonlyArray<MovementTaskView> => {
  const known = new Set(before.map((task) => task.id))
  return after.filter((task) => task.task_type === "Replenish" && !known.has(task.id))
}

/**
 * One open replenishment per (SKU, face): an operation opens Replenish tasks only to a (SKU,
 * face) with a pick-face setting and no Open Replenish task before it. The tasks one operation
 * opens to a face are one replenishment: a task per source.
 */
export const checkOneOpenReplenishment = (
  before: ReadonlyArray<MovementTaskView>,
  after: { readonly tasks: ReadonlyArray<MovementTaskView>; readonly faces: ReadonlyArray<PickFaceView> }
): ReadonlyArray<string> => {
  const open = new Set(
    before.filter((task) => task.task_type === "Replenish" && task.status_id === 1).map(faceOf)
  )
  const settings = new Set(after.faces.map((face) => JSON.stringify([face.sku_id, face.loc_id])))
  return newReplenishments(before, after.tasks).flatMap((task) => [
    ...(open.has(faceOf(task))
      ? [`replenishment task ${task.id} of ${task.sku_id} to ${task.to_loc_id} opened while one was Open`]
      : []),
    ...(settings.has(faceOf(task))
      ? []
      : [`replenishment task ${task.id} of ${task.sku_id} to ${task.to_loc_id}, which is no pick face of it`])
  ])
}

/**
 * Never over max (P-R1): a face an operation opened a replenishment to holds, with what is inbound
 * and less what is allocated (its `level`, R2), no more than its `max_qty` after the operation. A
 * face over its max by a count or an adjustment opens none, so only the faces replenished are
 * checked; their room (L4) is `checkCapacity`'s.
 */
export const checkNeverOverMax = (
  before: ReadonlyArray<MovementTaskView>,
  after: { readonly tasks: ReadonlyArray<MovementTaskView>; readonly faces: ReadonlyArray<PickFaceView> }
): ReadonlyArray<string> => {
  const replenished = new Set(newReplenishments(before, after.tasks).map(faceOf))
  return after.faces
    .filter((face) => replenished.has(JSON.stringify([face.sku_id, face.loc_id])) && face.level > face.max_qty)
    .map((face) =>
      `pick face of ${face.sku_id} at ${face.loc_id} replenished to level ${face.level}, over its max ${face.max_qty}`
    )
}

/**
 * Replenishment takes FEFO sources (the rule of allocation, `compareStock`): the source of every
 * Replenish task an operation opened is eligible (at a `Storage` location whose status lets stock
 * out, of the SKU, not expired on `today`), and every eligible content of the same SKU and client
 * that comes first (`comesFirst`) has nothing available after the operation. Checked after the
 * operation, as `checkFefo` is after a wave start: whatever the operation took before the
 * replenishment (a start's claims) and the replenishment's own tasks are both spent by then.
 */
export const checkReplenishmentFefo = (
  before: ReadonlyArray<MovementTaskView>,
  after: {
    readonly contents: ReadonlyArray<PlacedContentView>
    readonly tasks: ReadonlyArray<MovementTaskView>
    readonly locations: ReadonlyArray<LocationKindView>
  },
  today: string
): ReadonlyArray<string> => {
  const locations = new Map(after.locations.map((l) => [l.loc_id, l]))
  const eligible = (content: PlacedContentView) => {
    const location = locations.get(content.loc_id)
    return location !== undefined && location.loc_type === "Storage" && letsStockOut(location.status) &&
      (content.expiry_date === null || content.expiry_date >= today)
  }
  const byId = new Map(after.contents.map((c) => [c.content_id, c]))
  return newReplenishments(before, after.tasks).flatMap((task) => {
    const source = byId.get(task.content_id)
    if (source === undefined) {
      return [`replenishment task ${task.id} takes content ${task.content_id}, which has no stock`]
    }
    if (!eligible(source) || source.sku_id !== task.sku_id) {
      return [`replenishment task ${task.id} takes content ${source.content_id} at ${source.loc_id}, not a source`]
    }
    return after.contents
      .filter((other) =>
        other.content_id !== source.content_id && other.sku_id === source.sku_id &&
        other.client_id === source.client_id && eligible(other) && available(other) > 0 && comesFirst(other, source)
      )
      .map((other) =>
        `replenishment task ${task.id} takes content ${source.content_id} while content ${other.content_id} comes first and has stock`
      )
  })
}
