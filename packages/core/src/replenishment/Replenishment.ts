/**
 * Replenishment of pick faces (warehouse cycle §3.4 R4): the triggers that open Replenish tasks,
 * inside the transaction of the change that caused them (a wave start allocating from a face, a
 * pick confirmed at a face), and `POST /replenishments/run`.
 *
 * Exactly one open replenishment per (site, SKU, face), across processes: every decision runs
 * under the lock of the face's settings (`lockAt`, FOR UPDATE on PostgreSQL; SQLite has one writer
 * at a time), reads the face's stock after that lock, and opens nothing while a Replenish task of
 * the SKU to the face is Open. Locks follow the one order of every writer: the reserve contents
 * (by content_id) → the locations of faces and reserve (by loc_id, shared: a move or putaway to
 * the face, which locks it for update, waits) → the face settings.
 */
import { Clock, Effect } from "effect"
import { letsStockOut, type LocationWithOccupancy, takesStockIn } from "../locations/Location.js"
import { LocationRepository } from "../locations/LocationRepository.js"
import { SkuRepository } from "../masterdata/SkuRepository.js"
import { makeTasking, type TaskToOpen } from "../movement/Tasking.js"
import { formatDate, TimeZone } from "../shared/Formats.js"
import type { SiteId } from "../shared/Ids.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import type { Content } from "../stock/InventoryRepository.js"
import type { ReplenishmentRunRequest, StoredPickFace } from "./PickFace.js"
import { PickFaceRepository } from "./PickFaceRepository.js"
import { planReplenishment } from "./Replenish.js"

const faceKey = (face: Pick<StoredPickFace, "sku_id" | "loc_id">) => JSON.stringify([face.sku_id, face.loc_id])

export class Replenishment extends Effect.Service<Replenishment>()("@wms/core/Replenishment", {
  effect: Effect.gen(function*() {
    const pickFaces = yield* PickFaceRepository
    const locations = yield* LocationRepository
    const skus = yield* SkuRepository
    const timeZone = yield* TimeZone
    const { atomically } = yield* Transactor
    const tasking = yield* makeTasking

    /**
     * Opens the Replenish tasks the faces need, in the caller's transaction; the faces were read
     * without a lock and are decided again under it. Answers the ids of the tasks opened.
     */
    const replenish = Effect.fnUntraced(function*(
      actor: Actor,
      siteId: SiteId,
      candidates: ReadonlyArray<StoredPickFace>
    ) {
      if (candidates.length === 0) return []
      const wanted = new Set(candidates.map(faceKey))
      const skuIds = [...new Set(candidates.map((face) => face.sku_id))].sort()
      const reserve = yield* pickFaces.lockReserve(siteId, skuIds)
      const faceLocIds = [...new Set(candidates.map((face) => face.loc_id))].sort()
      const lockedLocations = yield* locations.lockMany(
        siteId,
        [...new Set([...faceLocIds, ...reserve.map((content) => content.loc_id)])].sort(),
        "share"
      )
      const state = new Map<string, LocationWithOccupancy>(
        lockedLocations.map((location) => [location.loc_id, location])
      )
      const settings = (yield* pickFaces.lockAt(siteId, faceLocIds)).filter((face) => wanted.has(faceKey(face)))
      if (settings.length === 0) return []
      // The faces' occupancy again, now that no other decider holds them: one that held them may
      // have opened tasks to them (of another SKU) since the first read.
      for (const face of yield* locations.lockMany(siteId, faceLocIds, "share")) state.set(face.loc_id, face)
      const locked = new Map(reserve.map((content) => [content.content_id, content]))
      // Per SKU, its reserve in the order read; what earlier faces of this call took is no longer
      // available to later ones.
      const current = new Map<string, Map<number, Content>>()
      for (const content of reserve) {
        const location = state.get(content.loc_id)
        if (location === undefined || location.loc_type !== "Storage" || !letsStockOut(location.status)) continue
        const ofSku = current.get(content.sku_id)
        if (ofSku === undefined) current.set(content.sku_id, new Map([[content.content_id, content]]))
        else ofSku.set(content.content_id, content)
      }
      // Read once for every face, after the locks: the SKUs, and what each face holds of its SKU.
      const skusById = yield* skus.findMany(siteId, [...new Set(settings.map((setting) => setting.sku_id))])
      const stocks = new Map((yield* pickFaces.stockAt(siteId, faceLocIds)).map((face) => [faceKey(face), face.stock]))
      const today = formatDate(yield* Clock.currentTimeMillis, timeZone)
      const toOpen: Array<TaskToOpen> = []
      for (const setting of settings) {
        const face = state.get(setting.loc_id)
        // A face retyped since its setting, or refusing stock (blocked, being counted), takes none.
        if (face === undefined || face.loc_type !== "PickFace" || !takesStockIn(face.status)) continue
        const sku = skusById.get(setting.sku_id)
        if (sku === undefined) continue
        const stock = stocks.get(faceKey(setting))!
        if (stock.replenishing > 0) continue
        const reserveOfSku = current.get(setting.sku_id) ?? new Map<number, Content>()
        const plan = planReplenishment(setting, stock, face, sku, [...reserveOfSku.values()], today)
        state.set(face.loc_id, plan.face)
        for (const task of plan.tasks) {
          const source = reserveOfSku.get(task.content_id)!
          reserveOfSku.set(source.content_id, { ...source, qty_tasked_from: source.qty_tasked_from + task.qty })
          toOpen.push({
            source: locked.get(task.content_id)!,
            task_type: "Replenish",
            qty: task.qty,
            to_loc_id: setting.loc_id,
            reason: null
          })
        }
      }
      return (yield* tasking.open(actor, toOpen)).map((task) => task.id)
    })

    /** The trigger of a change of stock at locations (a pick confirmed): the faces among the pairs. */
    const afterChange = Effect.fnUntraced(function*(
      actor: Actor,
      siteId: SiteId,
      touched: ReadonlyArray<{ readonly sku_id: string; readonly loc_id: string }>
    ) {
      return yield* replenish(actor, siteId, yield* pickFaces.findMany(siteId, touched))
    })

    /**
     * Whether a change of stock at these pairs is one `afterChange` replenishes from the reserve: a
     * caller that locks the pair's content first locks the SKU's stock with it (the lock order).
     */
    const replenishesAfter = (
      siteId: SiteId,
      touched: ReadonlyArray<{ readonly sku_id: string; readonly loc_id: string }>
    ) => Effect.map(pickFaces.findMany(siteId, touched), (faces) => faces.length > 0)

    /** The trigger of a wave start: the faces its claims take stock from. */
    const afterWaveStart = Effect.fnUntraced(function*(actor: Actor, siteId: SiteId, waveId: number) {
      return yield* replenish(actor, siteId, yield* pickFaces.allocatedByWave(siteId, waveId))
    })

    /** `POST /replenishments/run`: every face of SKUs the caller may see, of one SKU or one zone if asked. */
    const run = Effect.fnUntraced(function*(actor: Actor, request: ReplenishmentRunRequest) {
      const faces = yield* pickFaces.list(actor.scope, {
        sku_id: request.sku_id ?? undefined,
        zone: request.zone ?? undefined
      }, {})
      return { tasks: yield* replenish(actor, actor.scope.site_id, faces) }
    }, atomically)

    return {
      afterChange,
      afterWaveStart,
      replenishesAfter,
      runReplenishment: run,
      /** @deprecated Use `runReplenishment`. */
      run
    } as const
  })
}) {}
