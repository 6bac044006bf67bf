/**
 * Bulk import and export, shared by `POST /import/:kind`, `GET /export/:kind` and the `wms`
 * command. An import reads its file as a stream and writes each record as it comes, through the
 * service method behind the endpoint that writes one such record, so every rule and message is
 * that endpoint's; each record is that method's own transaction, so a row is written whole or not
 * at all and a bad row leaves the others be. What a row does:
 *
 * - skus: `PUT /skus/:id` with its `sku_id`: creates the SKU or replaces every writable field;
 * - customers, suppliers, carriers: `PUT /<kind>/:id` when the row has an `id`, else a create;
 * - orders, pre-advices: a create with its lines (`POST /orders`, `POST /preadvices`);
 * - stock: an adjustment (`POST /inventory/adjustments`);
 * - holds: a create (`POST /holds`); the export holds every hold, Active then Released.
 * - returns: an authorization with its lines (`POST /returns`).
 *
 * An export streams the records of the scope out as GET shows them, a page at a time where the
 * list has pages; orders and stock are read as their lists are, whole.
 */
import {
  type Actor,
  Carriers,
  decodeInput,
  Holds,
  InvalidInput,
  Inventory,
  isWarehouseError,
  type ListWindow,
  Orders,
  Partners,
  PreAdvices,
  Returns,
  Skus,
  TimeZone,
  type WarehouseError
} from "@wms/core"
import { stringify } from "csv-stringify/sync"
import { Chunk, Effect, Option, Stream } from "effect"
import type { Readable } from "node:stream"
import { bodyProblem } from "../../api/BodyProblem.js"
import { type Format, type Kind, linesField, recordColumns, type Shape, shapes } from "./Kinds.js"
import { type ImportReport, type RowError, Tally } from "./Report.js"
import { entries, type Entry } from "./Rows.js"

/** How many records an export reads at a time from a list that has pages. */
const pageSize = 500

/** The field a failure names in its message, as the API words it; null when it names none. */
const fieldOf = (message: string): string | null =>
  /^(?:Missing field (\S+)$|Invalid field ([^:\s]+): |Unknown field (\S+)$)/.exec(message)?.slice(1).find((field) =>
    field !== undefined
  ) ?? null

/**
 * The errors of a record that failed with `message`: on the row at fault, a line's own row for a
 * field of `lines.<n>`, and on each other row of the record a note that it was not written either.
 */
const errorsOf = (entry: Entry, shape: Shape, message: string): Array<RowError> => {
  const field = fieldOf(message)
  const ofLine = field === null ? null : new RegExp(`^${linesField}\\.(\\d+)\\.(.+)$`).exec(field)
  const lineRow = ofLine === null ? undefined : entry.lineRows?.[Number(ofLine[1])]
  const at: RowError = lineRow === undefined
    ? { row: entry.rows[0], field, message }
    : { row: lineRow, field: `${linesField}.${ofLine![2]}`, message }
  const others = entry.rows.filter((row) => row !== at.row).map((row): RowError => ({
    row,
    field: null,
    message: `Not written: row ${at.row}, of the same ${shape.groupedBy}, fails`
  }))
  return [at, ...others].sort((a, b) => a.row - b.row)
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A row's body as the API checks a JSON body before its schema: an object, without NUL, not too deep. */
const checked = (value: unknown) => {
  if (!isObject(value)) return Effect.fail(new InvalidInput({ message: "Row must be a JSON object" }))
  const problem = bodyProblem(value)
  return problem === undefined ? Effect.succeed(value) : Effect.fail(new InvalidInput({ message: problem }))
}

/** A list read a page at a time. */
const paged = <A, E>(page: (window: ListWindow) => Effect.Effect<ReadonlyArray<A>, E>): Stream.Stream<A, E> =>
  Stream.paginateChunkEffect(0, (offset) =>
    Effect.map(page({ limit: pageSize, offset }), (items) =>
      [
        Chunk.fromIterable(items),
        items.length < pageSize ? Option.none() : Option.some(offset + pageSize)
      ] as const))

/** A value of a record in a CSV cell: null is an empty cell. */
const cellOf = (value: unknown): string =>
  value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value)

const valueAt = (record: unknown, path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), record)

/** The CSV text of a kind's records: the header, then a row per record, or per line of a record with lines. */
const csvOf = (shape: Shape) => {
  const { fields, lineFields } = recordColumns(shape)
  const rowsOf = (record: unknown): Array<Array<string>> => {
    const header = fields.map((column) => cellOf(valueAt(record, column.path)))
    if (lineFields.length === 0) return [header]
    const lines = valueAt(record, [linesField])
    if (!Array.isArray(lines) || lines.length === 0) return [[...header, ...lineFields.map(() => "")]]
    return lines.map((line) => [...header, ...lineFields.map((column) => cellOf(valueAt(line, column.path)))])
  }
  return <E>(records: Stream.Stream<unknown, E>): Stream.Stream<string, E> =>
    Stream.concat(
      Stream.succeed(stringify([[...fields, ...lineFields].map((column) => column.name)])),
      Stream.mapChunks(records, (chunk) => Chunk.of(stringify(Chunk.toArray(chunk).flatMap(rowsOf))))
    )
}

const ndjsonOf = <E>(records: Stream.Stream<unknown, E>): Stream.Stream<string, E> =>
  Stream.mapChunks(
    records,
    (chunk) => Chunk.of(Chunk.toArray(chunk).map((record) => `${JSON.stringify(record)}\n`).join(""))
  )

export interface ImportOptions {
  /** Called after each record, with the report so far: for a progress display. */
  readonly onRecord?: (report: ImportReport) => void
}

export class Bulk extends Effect.Service<Bulk>()("@wms/http/Bulk", {
  effect: Effect.gen(function*() {
    const skus = yield* Skus
    const { customers, suppliers } = yield* Partners
    const carriers = yield* Carriers
    const orders = yield* Orders
    const preAdvices = yield* PreAdvices
    const inventory = yield* Inventory
    const holds = yield* Holds
    const returns = yield* Returns
    const timeZone = yield* TimeZone

    /** A create, or with an `id` a replace, of a record whose id is generated. */
    const createOrReplace = <Input>(
      create: (actor: Actor, input: Input) => Effect.Effect<unknown, WarehouseError>,
      update: (actor: Actor, id: number, input: Input) => Effect.Effect<unknown, WarehouseError>
    ) =>
    (actor: Actor, { id, ...input }: Input & { readonly id?: number | undefined }) =>
      id === undefined ? create(actor, input as Input) : update(actor, id, input as Input)

    const writers: {
      readonly [K in Kind]: (actor: Actor, value: unknown) => Effect.Effect<unknown, WarehouseError>
    } = {
      skus: (actor, value) =>
        Effect.flatMap(decodeInput(shapes.skus.body, value), (sku) => skus.updateSku(actor, sku.sku_id, sku)),
      customers: (actor, value) =>
        Effect.flatMap(
          decodeInput(shapes.customers.body, value),
          (row) => createOrReplace(customers.createCustomer, customers.updateCustomer)(actor, row)
        ),
      suppliers: (actor, value) =>
        Effect.flatMap(
          decodeInput(shapes.suppliers.body, value),
          (row) => createOrReplace(suppliers.createSupplier, suppliers.updateSupplier)(actor, row)
        ),
      carriers: (actor, value) =>
        Effect.flatMap(
          decodeInput(shapes.carriers.body, value),
          (row) => createOrReplace(carriers.createCarrier, carriers.updateCarrier)(actor, row)
        ),
      orders: (actor, value) =>
        Effect.flatMap(decodeInput(shapes.orders.body, value), (order) => orders.createOrder(actor, order)),
      preadvices: (actor, value) =>
        Effect.flatMap(
          decodeInput(shapes.preadvices.body, value),
          (preAdvice) => preAdvices.createPreAdvice(actor, preAdvice)
        ),
      stock: (actor, value) =>
        Effect.flatMap(decodeInput(shapes.stock.body, value), (adjustment) => inventory.adjust(actor, adjustment)),
      holds: (actor, value) =>
        Effect.flatMap(decodeInput(shapes.holds.body, value), (hold) => holds.createHold(actor, hold)),
      returns: (actor, value) =>
        Effect.flatMap(decodeInput(shapes.returns.body, value), (rma) => returns.createReturn(actor, rma))
    }

    const readers: { readonly [K in Kind]: (actor: Actor) => Stream.Stream<unknown, WarehouseError> } = {
      // The list shows a summary of each SKU; the export shows the record, as GET /skus/:id does.
      skus: (actor) =>
        Stream.mapEffect(paged((window) => skus.listSkus(actor, window)), (sku) => skus.getSku(actor, sku.sku_id)),
      customers: (actor) => paged((window) => customers.listCustomers(actor, window)),
      suppliers: (actor) => paged((window) => suppliers.listSuppliers(actor, window)),
      carriers: (actor) => paged((window) => carriers.listCarriers(actor, window)),
      orders: (actor) => Stream.flattenIterables(Stream.fromEffect(orders.listOrders(actor, { lines: true }))),
      // With its lines, as GET /preadvices/:id shows it; one deleted since its page was read is left out.
      preadvices: (actor) =>
        paged((window) => preAdvices.listPreAdvices(actor, window)).pipe(
          Stream.mapEffect((item) => Effect.option(preAdvices.getPreAdvice(actor, item.pre_advice_id))),
          Stream.filterMap((found) => found)
        ),
      stock: (actor) => Stream.flattenIterables(Stream.fromEffect(inventory.overview(actor))),
      holds: (actor) =>
        Stream.concat(
          paged((window) => holds.listHolds(actor, { ...window, status_id: 24 })),
          paged((window) => holds.listHolds(actor, { ...window, status_id: 14 }))
        ),
      returns: (actor) => paged((window) => returns.listReturns(actor, window))
    }

    /** Writes one record; the errors of its rows when it is not written. */
    const write = (actor: Actor, kind: Kind, entry: Entry): Effect.Effect<Array<RowError>> => {
      const shape = shapes[kind]
      if (entry.body._tag === "Unreadable") return Effect.succeed(errorsOf(entry, shape, entry.body.message))
      return Effect.flatMap(checked(entry.body.value), (body) => writers[kind](actor, body)).pipe(
        Effect.as([]),
        Effect.catchIf(isWarehouseError, (error) => Effect.succeed(errorsOf(entry, shape, error.message))),
        // A failure the API does not describe is a defect, as a 500 of the single-record endpoint is.
        Effect.orDie
      )
    }

    /**
     * Imports a file of `kind` in `format` as `actor`, record by record, reading `source` only as
     * fast as it writes. Fails only with a 400 for a CSV header that names a column twice (before
     * any row is written); a file that stops making sense, or cannot be read on, ends the import
     * with an error on the row where it does.
     */
    const importRecords = (
      actor: Actor,
      kind: Kind,
      format: Format,
      source: Readable,
      options: ImportOptions = {}
    ): Effect.Effect<ImportReport, InvalidInput> => {
      const tally = new Tally()
      return entries(source, format, shapes[kind]).pipe(
        Stream.runForEach((entry) =>
          Effect.map(write(actor, kind, entry), (errors) => {
            if (errors.length === 0) tally.wrote(entry.rows.length)
            else tally.refused(entry.rows.length, errors)
            options.onRecord?.(tally.report)
          })
        ),
        Effect.catchTag(
          "Unreadable",
          ({ reason, row }) => Effect.sync(() => tally.refused(1, [{ row, field: null, message: reason }]))
        ),
        Effect.map(() => tally.report)
      )
    }

    /** The records of `kind` in the actor's scope, as the text of a file in `format`. */
    const exportRecords = (actor: Actor, kind: Kind, format: Format): Stream.Stream<string, WarehouseError> =>
      readers[kind](actor).pipe(
        format === "csv" ? csvOf(shapes[kind]) : ndjsonOf,
        // The time zone the dates are shown in, wherever the stream is run (a server runs a
        // response's stream after its handler has returned).
        Stream.provideService(TimeZone, timeZone)
      )

    return { importRecords, exportRecords } as const
  })
}) {}
