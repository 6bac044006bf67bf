/**
 * Cycle counts (extension, warehouse cycle §3.5): create and plan, release, record, approve,
 * recount, cancel. One transaction per call.
 *
 * Locks follow the one order every writer keeps, with the count first: count → wave → order →
 * claim → contents by content_id → location. Release locks the contents at the location before it
 * snapshots them, and a pick or move confirmation locks its content before it looks for a count to
 * record its in-flight delta against: whichever comes second sees the other, so no confirmation
 * is lost between the snapshot and the count. Applying is guarded by the count's lock and status,
 * so a count never applies twice, and reads the lines it applies only once it holds every content
 * of the snapshot, so no confirmation is recorded in flight of a count that applied without it.
 */
import { Clock, Effect, Option } from "effect"
import { SiteSettingsRepository } from "../admin/SiteSettingsRepository.js"
import { LocationNotFound } from "../locations/Errors.js"
import { LocationRepository } from "../locations/LocationRepository.js"
import { SkuRepository } from "../masterdata/SkuRepository.js"
import { OrderRepository } from "../orders/OrderRepository.js"
import { progress } from "../picking/Picking.js"
import { PickingRepository } from "../picking/PickingRepository.js"
import { lockStockOfTask, reallocate } from "../picking/ShortPick.js"
import { invalidField } from "../shared/Errors.js"
import { EventPublisher } from "../shared/Events.js"
import { formatDate, formatDateTime, TimeZone } from "../shared/Formats.js"
import { Status, statusDescription, type StatusId } from "../shared/Status.js"
import { type Actor, requireAdmin } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { holdEntries } from "../stock/Held.js"
import { type Content, InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import type { ReasonCode } from "../stock/ReasonCode.js"
import type { ClaimRow } from "../waves/WaveRepository.js"
import { WaveRepository } from "../waves/WaveRepository.js"
import type {
  ApproveCountRequest,
  CountLineRecord,
  CountQuery,
  CountRecord,
  CountStatusId,
  NewCountRequest,
  PlanCountsRequest,
  RecordCountRequest,
  RecordedLine,
  SnapshotContent,
  StoredCount
} from "./Count.js"
import { CountRepository } from "./CountRepository.js"
import {
  CountBelowTasked,
  CountNotFound,
  CountWrongState,
  LocationAlreadyCounted,
  LocationHasInbound,
  siteUserRequired
} from "./Errors.js"
import { openCount } from "./Open.js"
import { tally, type TallyLine, targets, withinThreshold } from "./Tally.js"

/** The reason of a count that applies at once, every line within the threshold: a counting slip. */
export const withinThresholdReason: ReasonCode = "Miscount"

/** The summary of a count as `GET /counts` lists it: the record without its lines. */
export type CountSummary = Omit<CountRecord, "lines">

const wrongState = (count: StoredCount) =>
  new CountWrongState({ countId: count.id, status: statusDescription(count.status_id) })

/** Counts weigh every client's stock at a location: a client's user may not use them. */
const requireSiteUser = (actor: Actor) => (actor.scope.client_id === null ? Effect.void : siteUserRequired)

const ascending = (a: number, b: number) => a - b

export class Counts extends Effect.Service<Counts>()("@wms/core/Counts", {
  effect: Effect.gen(function*() {
    const repository = yield* CountRepository
    const locations = yield* LocationRepository
    const inventory = yield* InventoryRepository
    const skus = yield* SkuRepository
    const settings = yield* SiteSettingsRepository
    const picking = yield* PickingRepository
    const orders = yield* OrderRepository
    const waves = yield* WaveRepository
    const events = yield* EventPublisher
    const { atomically } = yield* Transactor
    const timeZone = yield* TimeZone

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis).toISOString())
    const shown = (instant: string | null) => (instant === null ? null : formatDateTime(instant, timeZone))

    const toSummary = (count: StoredCount): CountSummary => ({
      id: count.id,
      loc_id: count.loc_id,
      sku_id: count.sku_id,
      blind: count.blind,
      assignee: count.assignee,
      reason: count.reason,
      status: statusDescription(count.status_id),
      status_id: count.status_id,
      count_index: count.count_index,
      reason_code: count.reason_code,
      created_by: count.created_by,
      creation_date: formatDateTime(count.created_at, timeZone),
      release_date: shown(count.released_at),
      completion_date: shown(count.completed_at),
      approved_by: count.approved_by
    })

    /** The lines of a count as `viewer` may see them: a blind count hides its figures from non-admins until Complete. */
    const toLine = (
      line: TallyLine,
      hidden: boolean,
      threshold: Parameters<typeof withinThreshold>[1]
    ): CountLineRecord => {
      const base = {
        sku_id: line.sku_id,
        tag_id: line.tag_id,
        client_id: line.client_id,
        qty_counted: line.qty_counted
      }
      if (hidden) return base satisfies CountLineRecord
      return {
        ...base,
        expected: line.expected,
        in_flight: line.in_flight,
        variance: line.variance,
        within_threshold: line.variance === null ? null : withinThreshold(line, threshold)
      } satisfies CountLineRecord
    }

    const linesOf = (count: StoredCount) =>
      count.released_at === null
        ? Effect.succeed<ReadonlyArray<TallyLine>>([])
        : Effect.zipWith(
          repository.snapshot(count.id, count.count_index),
          repository.lines(count.id, count.count_index),
          tally
        )

    const toRecord = Effect.fnUntraced(function*(viewer: Pick<Actor, "admin">, count: StoredCount) {
      const hidden = count.blind && !viewer.admin && count.status_id !== Status.Complete
      const threshold = (yield* settings.get(count.site_id as Content["site_id"])).count_variance_threshold
      const lines = (yield* linesOf(count)).map((line) => toLine(line, hidden, threshold))
      return { ...toSummary(count), lines } satisfies CountRecord
    })

    /** The count of the caller's site, locked; else 404. */
    const lockedCount = Effect.fnUntraced(function*(actor: Actor, countId: number) {
      const found = yield* repository.find(actor.scope.site_id, countId, true)
      if (Option.isNone(found)) return yield* new CountNotFound({ countId })
      return found.value
    })

    const inState = (count: StoredCount, ...statuses: ReadonlyArray<CountStatusId>) =>
      statuses.includes(count.status_id) ? Effect.void : wrongState(count)

    const list = Effect.fnUntraced(function*(actor: Actor, query: CountQuery) {
      yield* requireSiteUser(actor)
      const { limit, offset, status, ...filter } = query
      const found = yield* repository.list(actor.scope.site_id, {
        ...filter,
        status_id: status === undefined ? undefined : Number(status) as CountStatusId
      }, { limit, offset })
      return found.map(toSummary)
    })

    const get = Effect.fnUntraced(function*(actor: Actor, countId: number) {
      yield* requireSiteUser(actor)
      const found = yield* repository.find(actor.scope.site_id, countId, false)
      if (Option.isNone(found)) return yield* new CountNotFound({ countId })
      return yield* toRecord(actor, found.value)
    })

    const create = Effect.fnUntraced(function*(actor: Actor, request: NewCountRequest) {
      yield* requireSiteUser(actor)
      if (request.sku_id !== null && Option.isNone(yield* skus.find(actor.scope.site_id, request.sku_id))) {
        return yield* invalidField("sku_id", `SKU ${request.sku_id} does not exist`)
      }
      const [location] = yield* locations.lockMany(actor.scope.site_id, [request.loc_id], "share")
      if (location === undefined) return yield* new LocationNotFound({ locId: request.loc_id })
      const count = yield* openCount(repository, actor, request.loc_id, {
        sku_id: request.sku_id,
        blind: request.blind,
        assignee: request.assignee,
        reason: request.reason
      }, yield* now)
      if (Option.isNone(count)) return yield* new LocationAlreadyCounted({ locId: request.loc_id })
      return yield* toRecord(actor, count.value)
    }, atomically)

    const plan = Effect.fnUntraced(function*(actor: Actor, request: PlanCountsRequest) {
      yield* requireSiteUser(actor)
      const locIds = yield* repository.planCandidates(actor.scope.site_id, {
        zone: request.zone,
        loc_type: request.loc_type
      }, request.max)
      const createdAt = yield* now
      const planned: Array<CountRecord> = []
      for (const locId of locIds) {
        // A location another process began counting in the meantime is left to that count.
        const count = yield* openCount(repository, actor, locId, {
          sku_id: null,
          blind: false,
          assignee: null,
          reason: null
        }, createdAt)
        if (Option.isSome(count)) planned.push(yield* toRecord(actor, count.value))
      }
      return planned
    }, atomically)

    /** The contents the count covers at its location, locked in content id order. */
    const lockCovered = Effect.fnUntraced(function*(
      actor: Actor,
      count: StoredCount,
      locked: Map<number, Content>
    ) {
      const seen = (yield* inventory.listContentsAt(actor.scope, count.loc_id))
        .filter((c) => count.sku_id === null || c.sku_id === count.sku_id)
        .map((c) => c.content_id)
        .filter((id) => !locked.has(id))
        .sort(ascending)
      for (const contentId of seen) {
        const content = yield* inventory.lockContent(actor.scope, contentId)
        if (Option.isSome(content) && content.value.loc_id === count.loc_id) locked.set(contentId, content.value)
      }
    })

    /** Snapshots what the covered contents hold now as the expected figures of the count index. */
    const snapshot = Effect.fnUntraced(function*(count: StoredCount, contents: ReadonlyMap<number, Content>) {
      const rows: Array<SnapshotContent> = [...contents.values()]
        .filter((c) => c.qty > 0)
        .sort((a, b) => a.content_id - b.content_id)
        .map((c) => ({
          content_id: c.content_id,
          client_id: c.client_id,
          sku_id: c.sku_id,
          tag_id: c.tag_id,
          expiry_date: c.expiry_date,
          expected: c.qty,
          in_flight: 0
        }))
      yield* repository.putSnapshot(count.id, count.count_index, rows)
    })

    const release = Effect.fnUntraced(function*(actor: Actor, countId: number) {
      yield* requireSiteUser(actor)
      const count = yield* lockedCount(actor, countId)
      yield* inState(count, Status.Open)
      const contents = new Map<number, Content>()
      yield* lockCovered(actor, count, contents)
      const [location] = yield* locations.lockMany(actor.scope.site_id, [count.loc_id], "update")
      if (location === undefined) return yield* new LocationNotFound({ locId: count.loc_id })
      if (location.occupancy.inbound_qty > 0) return yield* new LocationHasInbound({ locId: count.loc_id })
      // Stock that arrived before the location's lock was taken is covered too.
      yield* lockCovered(actor, count, contents)
      const releasedAt = yield* now
      const released: StoredCount = {
        ...count,
        status_id: Status.Counting,
        location_status: location.status,
        released_at: releasedAt
      }
      yield* snapshot(released, contents)
      yield* locations.setStatus(actor.scope.site_id, count.loc_id, "Counting")
      yield* repository.update(released)
    }, atomically)

    /**
     * The lines of a record request, checked: known SKUs, the count's SKU, each SKU and tag once. A
     * line without a tag takes the tag of the SKU's one tag in the snapshot that no other line
     * names, so that it replaces, and is replaced by, a line naming that tag; with none left it is
     * found stock, with several it is ambiguous.
     */
    const linesToRecord = Effect.fnUntraced(function*(
      actor: Actor,
      count: StoredCount,
      snapshot: ReadonlyArray<SnapshotContent>,
      request: RecordCountRequest
    ) {
      const named = new Set(
        request.lines.flatMap((l) => (l.tag_id === null ? [] : [JSON.stringify([l.sku_id, l.tag_id])]))
      )
      const seen = new Set<string>()
      const owners = new Map<string, string | null>()
      const lines: Array<RecordedLine> = []
      for (const line of request.lines) {
        if (count.sku_id !== null && line.sku_id !== count.sku_id) {
          return yield* invalidField("lines", `count ${count.id} covers SKU ${count.sku_id} only`)
        }
        const key = JSON.stringify([line.sku_id, line.tag_id])
        if (seen.has(key)) {
          return yield* invalidField(
            "lines",
            line.tag_id === null
              ? `SKU ${line.sku_id} without a tag is named twice`
              : `SKU ${line.sku_id} with tag ${line.tag_id} is named twice`
          )
        }
        seen.add(key)
        if (!owners.has(line.sku_id)) {
          const sku = yield* skus.find(actor.scope.site_id, line.sku_id)
          if (Option.isNone(sku)) return yield* invalidField("lines", `SKU ${line.sku_id} does not exist`)
          owners.set(line.sku_id, sku.value.client_id)
        }
        const left = line.tag_id !== null ? [] : [
          ...new Set(
            snapshot.filter((c) => c.sku_id === line.sku_id && !named.has(JSON.stringify([c.sku_id, c.tag_id])))
              .map((c) => c.tag_id)
          )
        ]
        if (left.length > 1) {
          return yield* invalidField(
            "lines",
            `SKU ${line.sku_id} lies at ${count.loc_id} under several tags: name the tag of each`
          )
        }
        lines.push({
          sku_id: line.sku_id,
          client_id: owners.get(line.sku_id) ?? null,
          tag_id: line.tag_id ?? left[0] ?? null,
          expiry_date: line.expiry_date,
          qty_counted: line.qty_counted
        })
      }
      return lines
    })

    /** Locks the open claims on these contents in the order of their writers: waves, orders, claims. */
    const lockClaims = Effect.fnUntraced(function*(contentIds: ReadonlyArray<number>) {
      const seen = yield* repository.openClaimsOn(contentIds)
      if (seen.length === 0) return { claims: [] as ReadonlyArray<ClaimRow>, orderStatuses: new Map<number, number>() }
      for (const waveId of [...new Set(seen.map((c) => c.wave_id))].sort(ascending)) yield* picking.lockWave(waveId)
      const orderStatuses = new Map<number, number>()
      for (const ref of [...new Set(seen.map((c) => c.order_ref))].sort(ascending)) {
        const status = yield* orders.lock(ref)
        if (Option.isSome(status)) orderStatuses.set(ref, status.value)
      }
      const claims: Array<ClaimRow> = []
      for (const claim of [...seen].sort((a, b) => a.id - b.id)) {
        const locked = yield* picking.lockOpenTask(claim.id)
        if (Option.isSome(locked)) claims.push(locked.value)
      }
      return { claims, orderStatuses }
    })

    const shrinkingOf = (lines: ReadonlyArray<TallyLine>) =>
      lines.filter((line) => line.variance !== null && line.variance !== 0).flatMap((line) =>
        targets(line).filter((t) => t.qty < t.content.expected + t.content.in_flight).map((t) => t.content.content_id)
      )

    /**
     * What applying the count changes, locked, and its lines read under those locks: the claims on
     * the contents the lines shrink, then every content of the snapshot in content id order, as
     * every writer locks contents. A confirmation records its in-flight change while it holds its
     * content, so the lines read after these locks hold every confirmation that committed before,
     * and one that comes after finds the count over. Confirmations only take stock from a counted
     * location, so the lines read again shrink no content the first read did not.
     */
    const lockForApply = Effect.fnUntraced(function*(actor: Actor, count: StoredCount) {
      const seen = yield* linesOf(count)
      const { claims, orderStatuses } = yield* lockClaims(shrinkingOf(seen))
      const contents = new Map<number, Content>()
      const covered = seen.flatMap((line) => line.contents.map((c) => c.content_id)).sort(ascending)
      for (const contentId of covered) {
        const locked = yield* inventory.lockContent(actor.scope, contentId)
        if (Option.isSome(locked)) contents.set(contentId, locked.value)
      }
      return { lines: yield* linesOf(count), claims, orderStatuses, contents }
    })

    /**
     * Applies the count in the caller's transaction, with what `lockForApply` locked and read: one
     * Count transaction per content whose quantity changes, found stock as new contents, claims the
     * shortfall leaves uncovered given back (Deallocate), `last_counted` set and the location's
     * status given back.
     */
    const apply = Effect.fnUntraced(function*(
      actor: Actor,
      count: StoredCount,
      locked: Effect.Effect.Success<ReturnType<typeof lockForApply>>,
      reasonCode: ReasonCode,
      approvedBy: string | null
    ) {
      const { claims, contents, lines, orderStatuses } = locked
      const createdAt = yield* now
      const planned = lines.filter((line) => line.variance !== null && line.variance !== 0)
      const entries: Array<Ledger.NewLedgerEntry> = []
      const released: Array<ClaimRow> = []
      // The contents the count fills from empty, with their new quantity: stock that enters them.
      const filled: Array<readonly [Content, number]> = []
      const notes = `Count ${count.id}`
      for (const line of planned) {
        const wanted = targets(line)
        if (wanted.length === 0) {
          const content = yield* found(actor, count, line, reasonCode, createdAt, entries)
          if (content.qty === 0) filled.push([content, line.qty_counted ?? 0])
          continue
        }
        for (const target of wanted) {
          const content = contents.get(target.content.content_id)
          if (content === undefined) continue
          const delta = target.qty - content.qty
          if (delta === 0) continue
          if (target.qty < content.qty_tasked_from) {
            return yield* new CountBelowTasked({ contentId: content.content_id, tasked: content.qty_tasked_from })
          }
          // A count is the truth: claims the counted stock cannot cover any more are given back, newest first.
          let allocated = content.qty_allocated
          for (const claim of claims.filter((c) => c.content_id === content.content_id).sort((a, b) => b.id - a.id)) {
            if (target.qty >= allocated + content.qty_tasked_from) break
            allocated -= claim.qty
            released.push(claim)
            entries.push(Ledger.entry("Deallocate", claim, {
              qty: claim.qty,
              from: claim.from_loc_id,
              to: claim.to_loc_id,
              final: claim.final_loc_id,
              order_id: claim.order_id,
              line_id: claim.line_id,
              notes,
              created_at: createdAt
            }))
          }
          yield* inventory.setQuantities(content.content_id, {
            qty: target.qty,
            qty_allocated: allocated,
            qty_tasked_from: content.qty_tasked_from
          })
          entries.push(Ledger.entry("Count", content, {
            qty: delta,
            from: count.loc_id,
            notes,
            reason_code: reasonCode,
            created_at: createdAt
          }))
          if (content.qty === 0) filled.push([content, target.qty])
        }
      }
      // Stock a count finds in an empty content of a held scope gets its Hold rows, as a receipt's does (H4).
      const entered = filled.filter(([, qty]) => qty > 0)
      if (entered.length > 0) {
        const held = yield* inventory.holdsOn(entered.map(([content]) => content.content_id))
        for (const [content, qty] of entered) {
          entries.push(...holdEntries(content, held.get(content.content_id) ?? [], qty, createdAt))
        }
      }
      yield* inventory.appendTransactions(entries)
      if (released.length > 0) {
        const covered = yield* reallocateReleased(actor, released, createdAt)
        yield* settleClaims(released, orderStatuses, covered)
      }
      yield* locations.setStatus(
        actor.scope.site_id,
        count.loc_id,
        count.location_status ?? "Active",
        createdAt
      )
      const completed: StoredCount = {
        ...count,
        status_id: Status.Complete,
        reason_code: reasonCode,
        completed_at: createdAt,
        approved_by: approvedBy
      }
      yield* repository.update(completed)
      yield* events.publish({
        event_type: "count_completed",
        site_id: count.site_id,
        client_id: null,
        data: yield* toRecord({ admin: true }, completed)
      })
    })

    /**
     * Found stock: the content of the line's tag at the location, else a new one (with a new tag
     * when none is named); yields it as it was before.
     */
    const found = Effect.fnUntraced(function*(
      actor: Actor,
      count: StoredCount,
      line: TallyLine,
      reasonCode: ReasonCode,
      createdAt: string,
      entries: Array<Ledger.NewLedgerEntry>
    ) {
      const qty = line.qty_counted ?? 0
      const owner = { site_id: actor.scope.site_id, client_id: line.client_id as Content["client_id"] }
      const existing = line.tag_id === null
        ? Option.none<Content>()
        : yield* inventory.lockContentAt(owner, {
          sku_id: line.sku_id,
          loc_id: count.loc_id,
          tag_id: line.tag_id,
          expiry_date: line.expiry_date
        })
      let content: Content
      if (Option.isSome(existing)) {
        content = existing.value
      } else {
        const fresh = {
          ...owner,
          sku_id: line.sku_id,
          loc_id: count.loc_id,
          tag_id: line.tag_id ?? (yield* inventory.nextTagId(actor.scope.site_id)),
          expiry_date: line.expiry_date,
          qty: 0,
          qty_allocated: 0,
          qty_tasked_from: 0,
          created_at: createdAt
        }
        content = { ...fresh, content_id: yield* inventory.insertContent(fresh) }
      }
      yield* inventory.setQuantities(content.content_id, { ...content, qty: content.qty + qty })
      entries.push(Ledger.entry("Count", content, {
        qty,
        from: count.loc_id,
        notes: `Count ${count.id}`,
        reason_code: reasonCode,
        created_at: createdAt
      }))
      return content
    })

    /**
     * A count's shortfall on allocated stock is handled as a short pick's (a count is the truth):
     * with the site's `reallocate_short_picks` on, each given-back claim's quantity is claimed again
     * from other stock (the location being counted lets none out); with `backorders` on, what is
     * not is backordered on its line. Answers the orders whose given-back claims were all claimed
     * again in full.
     */
    const reallocateReleased = Effect.fnUntraced(function*(
      actor: Actor,
      released: ReadonlyArray<ClaimRow>,
      createdAt: string
    ) {
      const covered = new Set<number>()
      const site = yield* settings.get(actor.scope.site_id)
      if (!site.reallocate_short_picks && !site.backorders) return covered
      const short = new Set<number>()
      const today = formatDate(createdAt, timeZone)
      for (const claim of released) {
        const got = site.reallocate_short_picks
          ? yield* reallocate(
            { waves, inventory },
            claim,
            yield* lockStockOfTask(waves, claim),
            claim.qty,
            today,
            createdAt
          )
          : 0
        if (got < claim.qty) short.add(claim.order_ref)
        covered.add(claim.order_ref)
        if (site.backorders && got < claim.qty) {
          yield* picking.addBackordered(claim.order_ref, claim.line_id, claim.qty - got)
        }
      }
      for (const ref of short) covered.delete(ref)
      return covered
    })

    /**
     * Removes the claims a count gave back and moves their orders, claimsets and waves on as a pick
     * confirmation would: the order lines keep their quantity and are short of allocation, unless
     * their claims were all claimed again (`covered`: those orders keep their status).
     */
    const settleClaims = Effect.fnUntraced(function*(
      released: ReadonlyArray<ClaimRow>,
      orderStatuses: ReadonlyMap<number, number>,
      covered: ReadonlySet<number>
    ) {
      yield* waves.deleteClaims(released.map((claim) => claim.id))
      const statuses = new Map<number, StatusId>()
      for (const claim of released) {
        const next = progress(
          yield* picking.openTaskCounts({
            orderRef: claim.order_ref,
            claimsetId: claim.claimset_id,
            waveId: claim.wave_id
          })
        )
        const before = orderStatuses.get(claim.order_ref)
        // An order still waiting for other picks keeps its status, but is no longer fully allocated.
        const order = next.order === Status.InProgress
          ? (before === Status.Allocated && !covered.has(claim.order_ref)
            ? Status.PartiallyAllocated
            : before ?? next.order) as StatusId
          : next.order
        statuses.set(claim.order_ref, order)
        // Released whole, as by a short pick of nothing: a new wave takes all of it.
        if (order === Status.Released) yield* picking.clearBackordered(claim.order_ref)
        yield* picking.setClaimsetStatus(claim.claimset_id, next.claimset)
        yield* waves.setStatus(claim.wave_id, next.wave)
      }
      yield* waves.setOrderStatuses(statuses)
    })

    /** Applies the recorded lines at once when every one is within the threshold; else the count waits for approval. */
    const settle = Effect.fnUntraced(function*(actor: Actor, count: StoredCount) {
      const locked = yield* lockForApply(actor, count)
      const threshold = (yield* settings.get(actor.scope.site_id)).count_variance_threshold
      if (locked.lines.every((line) => withinThreshold(line, threshold))) {
        return yield* apply(actor, count, locked, withinThresholdReason, null)
      }
      if (count.status_id === Status.PendingApproval) return
      const pending: StoredCount = { ...count, status_id: Status.PendingApproval }
      yield* repository.update(pending)
      yield* events.publish({
        event_type: "count_pending_approval",
        site_id: count.site_id,
        client_id: null,
        data: yield* toRecord({ admin: true }, pending)
      })
    })

    const record = Effect.fnUntraced(function*(actor: Actor, countId: number, request: RecordCountRequest) {
      yield* requireSiteUser(actor)
      const count = yield* lockedCount(actor, countId)
      yield* inState(count, Status.Counting, Status.PendingApproval)
      const snapshotNow = yield* repository.snapshot(count.id, count.count_index)
      const lines = yield* linesToRecord(actor, count, snapshotNow, request)
      yield* repository.putLines(count.id, count.count_index, lines)
      yield* settle(actor, count)
    }, atomically)

    const approve = Effect.fnUntraced(function*(actor: Actor, countId: number, request: ApproveCountRequest) {
      yield* requireAdmin(actor)
      yield* requireSiteUser(actor)
      const count = yield* lockedCount(actor, countId)
      yield* inState(count, Status.PendingApproval)
      yield* apply(actor, count, yield* lockForApply(actor, count), request.reason_code, actor.userId)
    }, atomically)

    const recount = Effect.fnUntraced(function*(actor: Actor, countId: number) {
      yield* requireSiteUser(actor)
      const count = yield* lockedCount(actor, countId)
      yield* inState(count, Status.PendingApproval)
      const contents = new Map<number, Content>()
      yield* lockCovered(actor, count, contents)
      yield* locations.lockMany(actor.scope.site_id, [count.loc_id], "update")
      const next: StoredCount = { ...count, status_id: Status.Counting, count_index: count.count_index + 1 }
      yield* snapshot(next, contents)
      yield* repository.update(next)
    }, atomically)

    const cancel = Effect.fnUntraced(function*(actor: Actor, countId: number) {
      yield* requireSiteUser(actor)
      const count = yield* lockedCount(actor, countId)
      yield* inState(count, Status.Open, Status.Counting, Status.PendingApproval)
      if (count.status_id !== Status.Open) {
        yield* locations.lockMany(actor.scope.site_id, [count.loc_id], "update")
        yield* locations.setStatus(actor.scope.site_id, count.loc_id, count.location_status ?? "Active")
      }
      yield* repository.update({ ...count, status_id: Status.Cancelled, completed_at: yield* now })
    }, atomically)

    return {
      listCounts: list,
      getCount: get,
      createCount: create,
      planCounts: plan,
      releaseCount: release,
      recordCount: record,
      approveCount: approve,
      recountCount: recount,
      cancelCount: cancel,
      /** @deprecated Use `listCounts`. */
      list,
      /** @deprecated Use `getCount`. */
      get,
      /** @deprecated Use `createCount`. */
      create,
      /** @deprecated Use `planCounts`. */
      plan,
      /** @deprecated Use `releaseCount`. */
      release,
      /** @deprecated Use `recordCount`. */
      record,
      /** @deprecated Use `approveCount`. */
      approve,
      /** @deprecated Use `recountCount`. */
      recount,
      /** @deprecated Use `cancelCount`. */
      cancel
    } as const
  })
}) {}
