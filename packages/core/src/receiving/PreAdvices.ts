/**
 * Pre-advices (advance shipping notices) and their lines (§2.3): the `PreAdvices` service that
 * holds their rules (DECISIONS §2–§4).
 *
 * A line's `client_id` overrides the header's for that line. A line written without one stores
 * none and shows the header's `client_id`, so it follows the header when that changes.
 */
import { Array as Arr, Clock, Effect, Option } from "effect"
import { ownerForWrite } from "../admin/Ownership.js"
import { SiteRepository } from "../admin/SiteRepository.js"
import { invalidField } from "../shared/Errors.js"
import { formatDutchDateTime, maxInteger, TimeZone } from "../shared/Formats.js"
import type { ClientId } from "../shared/Ids.js"
import { Status, statusDescription, type StatusId, statusObject } from "../shared/Status.js"
import { type Actor, canSee, type Scope } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import {
  PreAdviceExists,
  PreAdviceLineExists,
  PreAdviceLineNotFound,
  PreAdviceLineNumbersExhausted,
  PreAdviceNotFound,
  PreAdviceNotOpen,
  TransferPreAdviceNotDeletable
} from "./Errors.js"
import type {
  NewPreAdvice,
  NewPreAdviceLine,
  PreAdvice,
  PreAdviceChanges,
  PreAdviceLine,
  PreAdviceLineChanges,
  PreAdviceListItem
} from "./PreAdvice.js"
import {
  type PreAdviceLineFields,
  type PreAdvicePage,
  PreAdviceRepository,
  type StoredPreAdvice,
  type StoredPreAdviceLine
} from "./PreAdviceRepository.js"

const notFound = (preAdviceId: string) => new PreAdviceNotFound({ preAdviceId })

const lineNotFound = (preAdviceId: string, line: number) => new PreAdviceLineNotFound({ preAdviceId, line })

const lineExists = (preAdviceId: string, line: number) => new PreAdviceLineExists({ preAdviceId, line })

const notOpen = (preAdviceId: string, status: StatusId, rule: string) =>
  new PreAdviceNotOpen({ preAdviceId, status: statusDescription(status), rule })

const lineRecord = (header: StoredPreAdvice, line: StoredPreAdviceLine): PreAdviceLine => {
  const record = {
    pre_advice_id: header.pre_advice_id,
    line: line.line,
    sku_id: line.sku_id,
    qty: line.qty,
    qty_received: line.qty_received,
    pallet_id: line.pallet_id,
    client_id: line.client_id ?? header.client_id
  }
  // A transfer's line shows what was shipped and lost; any other keeps its documented keys.
  return header.transfer === null
    ? record
    : { ...record, tag_id: line.tag_id ?? "", expiry_date: line.expiry_date, qty_lost: line.qty_lost ?? 0 }
}

const isLineArray = (
  body: NewPreAdviceLine | ReadonlyArray<NewPreAdviceLine>
): body is ReadonlyArray<NewPreAdviceLine> => Array.isArray(body)

/** A new line with its SKU checked and its own client resolved. */
type CheckedLine = Omit<PreAdviceLineFields, "line"> & { readonly line: number | null }

/** Names a field of the body: `lines.0.sku_id` inside a pre-advice, `0.sku_id` in an array of lines. */
type FieldOf = (index: number, name: string) => string

/**
 * The rules of pre-advices and their lines. Every method takes the caller first; a pre-advice
 * outside the caller's scope is a 404, and each write is one transaction.
 */
export class PreAdvices extends Effect.Service<PreAdvices>()("@wms/core/PreAdvices", {
  effect: Effect.gen(function*() {
    const repo = yield* PreAdviceRepository
    const sites = yield* SiteRepository
    const { atomically } = yield* Transactor
    const timeZone = yield* TimeZone

    const ownerFor = (scope: Scope, requested: ClientId | null, field: string) =>
      Effect.provideService(ownerForWrite(scope, requested, field), SiteRepository, sites)

    const checkSupplier = Effect.fnUntraced(function*(scope: Scope, supplier: number | null) {
      if (supplier === null) return null
      const found = supplier >= 1 && supplier <= maxInteger ? yield* repo.supplierName(scope, supplier) : Option.none()
      if (Option.isNone(found)) return yield* invalidField("supplier", `supplier ${supplier} does not exist`)
      return supplier
    })

    const checkSku = Effect.fnUntraced(function*(scope: Scope, skuId: string, field: string) {
      if (!(yield* repo.visibleSkus(scope, [skuId])).has(skuId)) {
        return yield* invalidField(field, `sku ${skuId} does not exist`)
      }
    })

    /** The lines with their SKUs checked and their own clients resolved; 400 naming the first bad field. */
    const checkLines = Effect.fnUntraced(function*(
      scope: Scope,
      lines: ReadonlyArray<NewPreAdviceLine>,
      field: FieldOf
    ) {
      const skus = yield* repo.visibleSkus(scope, Arr.dedupe(lines.map((line) => line.sku_id)))
      const clients = new Map<ClientId, ClientId | null>()
      const checked: Array<CheckedLine> = []
      for (const [index, line] of lines.entries()) {
        if (!skus.has(line.sku_id)) {
          return yield* invalidField(field(index, "sku_id"), `sku ${line.sku_id} does not exist`)
        }
        let client_id = line.client_id ?? null
        if (client_id !== null) {
          const resolved = clients.get(client_id) ??
            (yield* ownerFor(scope, client_id, field(index, "client_id"))).client_id
          clients.set(client_id, resolved)
          client_id = resolved
        }
        checked.push({
          line: line.line ?? null,
          sku_id: line.sku_id,
          qty: line.qty,
          pallet_id: line.pallet_id ?? null,
          client_id
        })
      }
      return checked
    })

    /** The pre-advice when the scope may see it; 404 otherwise. */
    const visible = Effect.fnUntraced(function*(actor: Actor, id: string) {
      const found = yield* repo.find(actor.scope.site_id, id)
      if (Option.isNone(found) || !canSee(actor.scope, found.value)) return yield* notFound(id)
      return found.value
    })

    /**
     * The pre-advice, locked for the rest of the transaction. It is read again once locked: a
     * concurrent write may have changed its owner or status, or removed it, in the meantime.
     */
    const locked = Effect.fnUntraced(function*(actor: Actor, id: string) {
      const header = yield* visible(actor, id)
      if (!(yield* repo.lock(header.ref))) return yield* notFound(id)
      const current = yield* visible(actor, id)
      if (current.ref !== header.ref) return yield* notFound(id)
      return current
    })

    /**
     * Numbers and inserts lines. Explicit numbers stay; the others get max + 1 in the order given,
     * counting every number in use or given explicitly in the same request.
     */
    const insertLines = Effect.fnUntraced(function*(
      header: Pick<StoredPreAdvice, "ref" | "pre_advice_id">,
      lines: ReadonlyArray<CheckedLine>
    ) {
      if (lines.length === 0) return
      const id = header.pre_advice_id
      let next = lines.reduce((max, line) => Math.max(max, line.line ?? 0), yield* repo.maxLine(header.ref)) + 1
      const numbered: Array<PreAdviceLineFields> = []
      const seen = new Set<number>()
      for (const line of lines) {
        let number = line.line
        if (number === null) {
          if (next > maxInteger) return yield* new PreAdviceLineNumbersExhausted({ preAdviceId: id })
          number = next++
        }
        if (seen.has(number)) return yield* lineExists(id, number)
        seen.add(number)
        numbered.push({ ...line, line: number })
      }
      const inserted = new Set(yield* repo.insertLines(header.ref, numbered))
      const taken = numbered.find((line) => !inserted.has(line.line))
      if (taken !== undefined) return yield* lineExists(id, taken.line)
    })

    const list = Effect.fnUntraced(function*(actor: Actor, page: PreAdvicePage = {}) {
      const rows = yield* repo.list(actor.scope, page)
      return rows.map((row): PreAdviceListItem => ({
        id: row.ref,
        pre_advice_id: row.pre_advice_id,
        client_id: row.client_id,
        pre_advice_status: statusObject(row.status_id),
        pre_advice_status_description: statusDescription(row.status_id),
        supplier: row.supplier,
        supplier_id: row.supplier?.id ?? null,
        creation_datetime: formatDutchDateTime(row.created_at, timeZone),
        created_by: row.created_by
      }))
    })

    const get = Effect.fnUntraced(function*(actor: Actor, id: string) {
      const header = yield* visible(actor, id)
      const lines = yield* repo.lines(header.ref, {})
      return {
        pre_advice_id: header.pre_advice_id,
        client_id: header.client_id,
        pre_advice_status: statusObject(header.status_id),
        supplier: header.supplier,
        creation_datetime: formatDutchDateTime(header.created_at, timeZone),
        created_by: header.created_by,
        ...(header.transfer === null ? {} : {
          transfer_order_id: header.transfer.order_id,
          from_site: header.transfer.from_site,
          reason_code: header.transfer.reason_code
        }),
        lines: lines.map((line) => lineRecord(header, line))
      } satisfies PreAdvice
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: NewPreAdvice) {
      const owner = yield* ownerFor(actor.scope, input.client_id, "client_id")
      const supplier_id = yield* checkSupplier(actor.scope, input.supplier)
      const lines = yield* checkLines(actor.scope, input.lines ?? [], (index, name) => `lines.${index}.${name}`)
      const ref = yield* repo.insert({
        site_id: owner.site_id,
        pre_advice_id: input.pre_advice_id,
        client_id: owner.client_id,
        status_id: Status.Open,
        supplier_id,
        created_at: new Date(yield* Clock.currentTimeMillis).toISOString(),
        created_by: actor.userId
      })
      if (Option.isNone(ref)) {
        return yield* new PreAdviceExists({ preAdviceId: input.pre_advice_id })
      }
      yield* insertLines({ ref: ref.value, pre_advice_id: input.pre_advice_id }, lines)
    }, atomically)

    const update = Effect.fnUntraced(function*(actor: Actor, id: string, input: PreAdviceChanges) {
      const supplier_id = input.supplier === undefined ? undefined : yield* checkSupplier(actor.scope, input.supplier)
      const client_id = input.client_id === undefined
        ? undefined
        : (yield* ownerFor(actor.scope, input.client_id, "client_id")).client_id
      const header = yield* locked(actor, id)
      if (header.status_id !== Status.Open) {
        return yield* notOpen(id, header.status_id, "only an Open pre-advice can be changed")
      }
      yield* repo.update(header.ref, { supplier_id, client_id })
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, id: string) {
      const header = yield* locked(actor, id)
      // What a transfer shipped must arrive or be written off: it is closed, never deleted (spec §3 T5).
      if (header.transfer !== null) return yield* new TransferPreAdviceNotDeletable({ preAdviceId: id })
      if (header.status_id !== Status.Open) {
        return yield* notOpen(id, header.status_id, "only an Open pre-advice can be deleted")
      }
      yield* repo.remove(header.ref)
    }, atomically)

    const listLines = Effect.fnUntraced(function*(actor: Actor, id: string, page: PreAdvicePage = {}) {
      const header = yield* visible(actor, id)
      const lines = yield* repo.lines(header.ref, page)
      return lines.map((line) => lineRecord(header, line))
    })

    const getLine = Effect.fnUntraced(function*(actor: Actor, id: string, line: number) {
      const header = yield* visible(actor, id)
      const found = yield* repo.findLine(header.ref, line)
      if (Option.isNone(found)) return yield* lineNotFound(id, line)
      return lineRecord(header, found.value)
    })

    /** Adds one line, or several when the body is an array (numbered from 0 in error messages). */
    const addLines = Effect.fnUntraced(function*(
      actor: Actor,
      id: string,
      body: NewPreAdviceLine | ReadonlyArray<NewPreAdviceLine>
    ) {
      const many = isLineArray(body)
      const lines = yield* checkLines(
        actor.scope,
        many ? body : [body],
        (index, name) => many ? `${index}.${name}` : name
      )
      const header = yield* locked(actor, id)
      if (header.status_id !== Status.Open) {
        return yield* notOpen(id, header.status_id, "its lines can be changed only while it is Open")
      }
      yield* insertLines(header, lines)
    }, atomically)

    const updateLine = Effect.fnUntraced(function*(
      actor: Actor,
      id: string,
      line: number,
      input: PreAdviceLineChanges
    ) {
      if (input.sku_id !== undefined) yield* checkSku(actor.scope, input.sku_id, "sku_id")
      const client_id = input.client_id === undefined || input.client_id === null
        ? input.client_id
        : (yield* ownerFor(actor.scope, input.client_id, "client_id")).client_id
      const changes = { sku_id: input.sku_id, qty: input.qty, pallet_id: input.pallet_id, client_id }
      const header = yield* locked(actor, id)
      if (Option.isNone(yield* repo.findLine(header.ref, line))) return yield* lineNotFound(id, line)
      if (header.status_id !== Status.Open) {
        return yield* notOpen(id, header.status_id, "its lines can be changed only while it is Open")
      }
      yield* repo.updateLine(header.ref, line, changes)
    }, atomically)

    const removeLine = Effect.fnUntraced(function*(actor: Actor, id: string, line: number) {
      const header = yield* locked(actor, id)
      if (Option.isNone(yield* repo.findLine(header.ref, line))) return yield* lineNotFound(id, line)
      if (header.status_id !== Status.Open) {
        return yield* notOpen(id, header.status_id, "its lines can be changed only while it is Open")
      }
      yield* repo.removeLine(header.ref, line)
    }, atomically)

    return {
      listPreAdvices: list,
      getPreAdvice: get,
      createPreAdvice: create,
      updatePreAdvice: update,
      deletePreAdvice: remove,
      listPreAdviceLines: listLines,
      getPreAdviceLine: getLine,
      addPreAdviceLines: addLines,
      updatePreAdviceLine: updateLine,
      deletePreAdviceLine: removeLine,
      /** @deprecated Use `listPreAdvices`. */
      list,
      /** @deprecated Use `getPreAdvice`. */
      get,
      /** @deprecated Use `createPreAdvice`. */
      create,
      /** @deprecated Use `updatePreAdvice`. */
      update,
      /** @deprecated Use `deletePreAdvice`. */
      remove,
      /** @deprecated Use `listPreAdviceLines`. */
      listLines,
      /** @deprecated Use `getPreAdviceLine`. */
      getLine,
      /** @deprecated Use `addPreAdviceLines`. */
      addLines,
      /** @deprecated Use `updatePreAdviceLine`. */
      updateLine,
      /** @deprecated Use `deletePreAdviceLine`. */
      removeLine
    } as const
  })
}) {}
