/**
 * The records of an import file, read as a stream: CSV through csv-parse, NDJSON line by line.
 * The file is a Node `Readable`, read only as fast as its records are taken: each record is pulled
 * (`Stream.fromAsyncIterable`) when the one before it has been written, and Node's own
 * back-pressure (`pipe`) keeps what is read ahead to a buffer or two. Each comes with the row it was read from, the line of the file where it starts (the CSV header
 * is line 1), so that a report names the row a person finds in an editor or a spreadsheet.
 *
 * A CSV has a header row naming the body's fields; a column the body does not have is ignored, as
 * an unknown field of a JSON body is. A cell becomes the value its field holds: a number, `true` or
 * `false`, or text; an empty cell leaves the field out. The rows of an order or a pre-advice are its
 * lines, one row each, with the header's fields repeated: consecutive rows with the same id make
 * one record, the header's fields taken from its first row and each line's from the `lines.<field>`
 * columns (a row whose line cells are all empty adds no line).
 */
import { InvalidInput } from "@wms/core"
import { parse } from "csv-parse"
import { Chunk, Data, Effect, Option, Stream } from "effect"
import type { Readable } from "node:stream"
import { type BodyColumns, bodyColumns, type CellType, type Format, linesField, type Shape } from "./Kinds.js"

/** A row or NDJSON line is at most as large as a JSON body may be. */
export const maxRowBytes = 1024 * 1024

/** One record to write, with the rows it came from. */
export interface Entry {
  /** The rows of the record; the first is the one a failure of the record as a whole is reported on. */
  readonly rows: ReadonlyArray<number>
  /** The row each element of the body's `lines` came from, for a record read from rows of lines. */
  readonly lineRows?: ReadonlyArray<number>
  /** The body, or why none could be read from the row. */
  readonly body: { readonly _tag: "Body"; readonly value: unknown } | {
    readonly _tag: "Unreadable"
    readonly message: string
  }
}

/** The file cannot be read on from `row`: what came before it stands, nothing after it is read. */
export class Unreadable extends Data.TaggedError("Unreadable")<{ readonly row: number; readonly reason: string }> {}

const body = (value: unknown): Entry["body"] => ({ _tag: "Body", value })
const unreadable = (message: string): Entry["body"] => ({ _tag: "Unreadable", message })

const number = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** A cell as the value of a field of `type`; a cell that is no such value stays text, for the schema to refuse. */
const valueOf = (cell: string, type: CellType): unknown => {
  if (type === "number") return number.test(cell.trim()) ? Number(cell) : cell
  if (type === "boolean") {
    const word = cell.trim().toLowerCase()
    return word === "true" ? true : word === "false" ? false : cell
  }
  return cell
}

/** A CSV record as cells and the line it starts on. */
interface CsvRecord {
  readonly cells: ReadonlyArray<string>
  readonly row: number
}

interface ParsedCsv {
  readonly record: Array<string>
  readonly info: { readonly lines: number; readonly empty_lines: number }
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** A failure of the file itself (a read error, a client gone), not of its text. */
class SourceFailure extends Data.TaggedError("SourceFailure")<{ readonly cause: unknown }> {}

/** The CSV records of a file, each with the line it starts on. */
const csvRecords = (source: Readable): Stream.Stream<CsvRecord, Unreadable> =>
  Stream.suspend(() => {
    let lastLine = 0
    let lastEmpty = 0
    const parser = parse({
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: maxRowBytes,
      // Not destroyed by its own error, so that the records it read before the error are taken
      // first: destroying it would drop them.
      ...{ autoDestroy: false }
    })
    // `pipe` leaves the file open when the parser stops early: a request's rest is then read away
    // by Node, so that the answer reaches the client (`pipeline` would destroy it).
    source.once("error", (cause) => parser.destroy(new SourceFailure({ cause })))
    source.pipe(parser)
    return Stream.fromAsyncIterable(parser as AsyncIterable<ParsedCsv>, (error) => {
      if (error instanceof SourceFailure) {
        return new Unreadable({ row: lastLine + 1, reason: `The file could not be read: ${reasonOf(error.cause)}` })
      }
      const line = (error as { lines?: unknown }).lines
      return new Unreadable({
        row: typeof line === "number" ? line : lastLine + 1,
        reason: `Invalid CSV: ${reasonOf(error)}`
      })
    }).pipe(
      Stream.map(({ info, record }) => {
        // `lines` is where the record ends: it starts after the previous one and the empty lines between.
        const row = lastLine + 1 + info.empty_lines - lastEmpty
        lastLine = info.lines
        lastEmpty = info.empty_lines
        return { cells: record, row }
      })
    )
  })

/** A CSV header as the fields its columns fill; a 400 when it names a column twice. */
const headerOf = (cells: ReadonlyArray<string>, columns: BodyColumns) => {
  const seen = new Set<string>()
  for (const name of cells) {
    if (name !== "" && seen.has(name)) {
      return Effect.fail(new InvalidInput({ message: `The CSV header names the column ${name} twice` }))
    }
    seen.add(name)
  }
  const linePrefix = `${linesField}.`
  return Effect.succeed(cells.map((name) => {
    const type = columns.fields.get(name)
    if (type !== undefined) return { field: name, type, ofLine: false }
    const lineType = name.startsWith(linePrefix) ? columns.lineFields.get(name.slice(linePrefix.length)) : undefined
    return lineType === undefined ? undefined : { field: name.slice(linePrefix.length), type: lineType, ofLine: true }
  }))
}

type Header = Effect.Effect.Success<ReturnType<typeof headerOf>>

/** A CSV row as its record's fields and its line's, or why it cannot be read. */
interface CsvRow {
  readonly row: number
  readonly fields: Record<string, unknown>
  readonly line: Record<string, unknown> | undefined
  readonly problem: string | undefined
}

const rowOf = (header: Header, { cells, row }: CsvRecord): CsvRow => {
  const fields: Record<string, unknown> = {}
  let line: Record<string, unknown> | undefined
  const problem = cells.length === header.length
    ? undefined
    : `Row has ${cells.length} cells where the header has ${header.length}`
  header.forEach((column, i) => {
    const cell = cells[i]
    if (column === undefined || cell === undefined || cell === "") return
    if (column.ofLine) (line ??= {})[column.field] = valueOf(cell, column.type)
    else fields[column.field] = valueOf(cell, column.type)
  })
  return { row, fields, line, problem }
}

/** Each row one record. */
const singleRows = <E>(rows: Stream.Stream<CsvRow, E>) =>
  Stream.map(rows, ({ fields, problem, row }): Entry => ({
    rows: [row],
    body: problem === undefined ? body(fields) : unreadable(problem)
  }))

/** Consecutive rows with the same non-empty `key` as one record, a line each. */
const groupedRows = (key: string) => <E>(rows: Stream.Stream<CsvRow, E>) =>
  rows.pipe(
    // A row without the key is a record of its own, which fails for the missing field.
    Stream.groupAdjacentBy(({ fields, row }) => {
      const value = fields[key]
      return typeof value === "string" ? `=${value}` : `#${row}`
    }),
    Stream.map(([, group]): Entry => {
      const all = Chunk.toReadonlyArray(group)
      const unreadableRow = all.find((row) => row.problem !== undefined)
      const withLines = all.filter((row) => row.line !== undefined)
      return {
        rows: all.map(({ row }) => row),
        lineRows: withLines.map(({ row }) => row),
        body: unreadableRow === undefined
          ? body({ ...all[0].fields, [linesField]: withLines.map(({ line }) => line) })
          : unreadable(`Row ${unreadableRow.row}: ${unreadableRow.problem}`)
      }
    })
  )

/** The records of a CSV file of `shape`'s rows: the first record is the header. */
const csvEntries = (source: Readable, shape: Shape) =>
  Stream.suspend(() => {
    const columns = bodyColumns(shape)
    let header: Header | undefined
    const rows = csvRecords(source).pipe(
      Stream.mapEffect((record) =>
        header === undefined
          ? Effect.as(Effect.map(headerOf(record.cells, columns), (read) => (header = read)), Option.none<CsvRow>())
          : Effect.succeed(Option.some(rowOf(header, record)))
      ),
      Stream.filterMap((row) => row)
    )
    return shape.groupedBy === undefined ? singleRows(rows) : groupedRows(shape.groupedBy)(rows)
  })

/** A line of an NDJSON file and its number. */
interface NdjsonLine {
  readonly text: string
  readonly row: number
}

/** A line over `maxRowBytes`: where the file stops, after the lines before it. */
interface TooLong {
  readonly tooLong: number
}

/** The NDJSON lines of a file, each with its line number; a line over `maxRowBytes` stops the file. */
const ndjsonLines = (source: Readable): Stream.Stream<NdjsonLine, Unreadable> =>
  Stream.suspend(() => {
    let lineNumber = 0
    let pending = ""
    const decoder = new TextDecoder()
    // A chunk of the file may hold whole lines of any length, and the unfinished last one grows
    // across chunks: both are checked, and a long one ends the chunk's lines after those before it.
    const lines = (text: string, last: boolean): Chunk.Chunk<NdjsonLine | TooLong> => {
      const parts = (pending + text).split("\n")
      pending = last ? "" : parts.pop()!
      const pieces: Array<NdjsonLine | TooLong> = []
      for (const part of parts) {
        lineNumber++
        if (part.length > maxRowBytes) return Chunk.fromIterable([...pieces, { tooLong: lineNumber }])
        pieces.push({ text: part, row: lineNumber })
      }
      if (pending.length > maxRowBytes) pieces.push({ tooLong: lineNumber + 1 })
      return Chunk.fromIterable(pieces)
    }
    const bytes = Stream.fromAsyncIterable(
      source as AsyncIterable<Uint8Array>,
      (cause) => new Unreadable({ row: lineNumber + 1, reason: `The file could not be read: ${reasonOf(cause)}` })
    )
    return Stream.concat(
      Stream.mapConcatChunk(bytes, (chunk) => lines(decoder.decode(chunk, { stream: true }), false)),
      Stream.suspend(() => Stream.fromChunk(lines(decoder.decode(), true)))
    ).pipe(
      Stream.mapEffect((piece) =>
        "tooLong" in piece
          ? Effect.fail(new Unreadable({ row: piece.tooLong, reason: "Row is larger than 1 MiB" }))
          : Effect.succeed(piece)
      )
    )
  })

/** The records of an NDJSON file: one JSON body a line; blank lines are skipped. */
const ndjsonEntries = (source: Readable) =>
  ndjsonLines(source).pipe(
    Stream.filter(({ text }) => text.trim() !== ""),
    Stream.map(({ row, text }): Entry => {
      try {
        return { rows: [row], body: body(JSON.parse(text)) }
      } catch {
        return { rows: [row], body: unreadable("Row is not valid JSON") }
      }
    })
  )

/**
 * The records of a file of `format` holding `shape`'s rows. It fails with `Unreadable` where the
 * file stops making sense or cannot be read on, and with a 400 for a CSV header that names a
 * column twice.
 */
export const entries = (
  source: Readable,
  format: Format,
  shape: Shape
): Stream.Stream<Entry, Unreadable | InvalidInput> =>
  format === "csv" ? csvEntries(source, shape) : ndjsonEntries(source)
