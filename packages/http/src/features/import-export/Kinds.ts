/**
 * What bulk import and export move, for each kind of record: the body one row is written with (the
 * body of the endpoint that writes one such record), the record as a GET shows it, and for orders
 * pre-advices and returns the field whose value groups the CSV rows of one record, one row per line. The
 * CSV columns are read off these schemas, so that they cannot drift from the API's own fields.
 */
import {
  AdjustmentRequest,
  Carrier,
  CarrierInput,
  Hold,
  NewHold,
  NewOrder,
  NewPreAdvice,
  NewReturn,
  NewSku,
  Order,
  Partner,
  PartnerInput,
  PreAdvice,
  RecordId,
  Return,
  Sku
} from "@wms/core"
import { Schema, SchemaAST as AST } from "effect"
import { OverviewRecord } from "../inventory/InventoryApi.js"

export const kinds = [
  "skus",
  "customers",
  "suppliers",
  "carriers",
  "orders",
  "preadvices",
  "stock",
  "holds",
  "returns"
] as const
export type Kind = (typeof kinds)[number]

export const isKind = (name: string): name is Kind => (kinds as ReadonlyArray<string>).includes(name)

export const formats = ["csv", "ndjson"] as const
export type Format = (typeof formats)[number]

/** The media type of each format, in `Content-Type` and `Accept`. */
export const mediaTypes: { readonly [F in Format]: string } = { csv: "text/csv", ndjson: "application/x-ndjson" }

const formatOfMediaType = (mediaType: string): Format | undefined =>
  formats.find((format) => mediaTypes[format] === mediaType.split(";", 1)[0].trim().toLowerCase())

/** The format a request body's `Content-Type` names; undefined for any other type. */
export const formatOfContentType = (contentType: string | undefined): Format | undefined =>
  contentType === undefined ? undefined : formatOfMediaType(contentType)

/** The first of the formats an `Accept` header names; undefined when it names neither. */
export const formatOfAccept = (accept: string | undefined): Format | undefined => {
  for (const mediaType of accept?.split(",") ?? []) {
    const format = formatOfMediaType(mediaType)
    if (format !== undefined) return format
  }
  return undefined
}

/** Where lines go in a record, and the prefix of their CSV columns. */
export const linesField = "lines"

export interface Shape {
  /** One row's body, as the endpoint that writes one record takes it. */
  readonly body: Schema.Schema.Any
  /** A record as the export shows it: as GET shows it. */
  readonly record: Schema.Schema.Any
  /** The field whose value groups consecutive CSV rows into one record, one row per line. */
  readonly groupedBy?: string
}

// A partner or carrier row that names an existing record's `id` replaces it, as PUT does.
const withId = <Fields extends Schema.Struct.Fields>(input: Schema.Struct<Fields>) =>
  Schema.Struct({ id: Schema.optional(RecordId), ...input.fields })

export const shapes = {
  skus: { body: NewSku, record: Sku },
  customers: { body: withId(PartnerInput), record: Partner },
  suppliers: { body: withId(PartnerInput), record: Partner },
  carriers: { body: withId(CarrierInput), record: Carrier },
  orders: { body: NewOrder, record: Order, groupedBy: "order_id" },
  preadvices: { body: NewPreAdvice, record: PreAdvice, groupedBy: "pre_advice_id" },
  stock: { body: AdjustmentRequest, record: OverviewRecord },
  holds: { body: NewHold, record: Hold },
  returns: { body: NewReturn, record: Return, groupedBy: "return_id" }
} as const satisfies { readonly [K in Kind]: Shape }

/** How a CSV cell becomes the JSON value of its field: a number, true or false, or the text itself. */
export type CellType = "number" | "boolean" | "text"

/** The part of a schema that says what it holds: without null, absence, refinements and transformations. */
const holds = (ast: AST.AST): AST.AST => {
  switch (ast._tag) {
    case "Refinement":
      return holds(ast.from)
    case "Transformation":
      return holds(ast.from)
    case "Suspend":
      return holds(ast.f())
    case "Union": {
      const present = ast.types.filter((type) => type._tag !== "UndefinedKeyword" && !AST.isLiteral(type))
      return present.length === 1 ? holds(present[0]) : ast
    }
    default:
      return ast
  }
}

const cellTypeOf = (ast: AST.AST): CellType => {
  const held = holds(ast)
  return held._tag === "NumberKeyword" ? "number" : held._tag === "BooleanKeyword" ? "boolean" : "text"
}

/** The fields of a record schema (its `lines` as their own fields), each with what it holds. */
const fieldsOf = (ast: AST.AST): ReadonlyArray<{ readonly name: string; readonly type: AST.AST }> => {
  const held = holds(ast)
  if (held._tag !== "TypeLiteral") return []
  return held.propertySignatures.flatMap((property) =>
    typeof property.name === "string" ? [{ name: property.name, type: property.type }] : []
  )
}

/** The schema of one line of `lines`, when the record has lines. */
const lineOf = (ast: AST.AST): AST.AST | undefined => {
  const lines = fieldsOf(ast).find((field) => field.name === linesField)
  if (lines === undefined) return undefined
  const held = holds(lines.type)
  return held._tag === "TupleType" ? held.rest[0]?.type : undefined
}

/** The CSV columns a body is read from, each with its cell type; a line's columns are `lines.<field>`. */
export interface BodyColumns {
  readonly fields: ReadonlyMap<string, CellType>
  readonly lineFields: ReadonlyMap<string, CellType>
}

export const bodyColumns = (shape: Shape): BodyColumns => {
  const body = Schema.encodedSchema(shape.body).ast
  const line = lineOf(body)
  const typed = (ast: AST.AST) => new Map(fieldsOf(ast).map(({ name, type }) => [name, cellTypeOf(type)] as const))
  const fields = typed(body)
  fields.delete(linesField)
  return { fields, lineFields: line === undefined ? new Map() : typed(line) }
}

/** A column of an export: its name, and the path of its value in the record (or in a line). */
export interface Column {
  readonly name: string
  readonly path: ReadonlyArray<string>
}

const columnsOf = (ast: AST.AST, path: ReadonlyArray<string>): Array<Column> =>
  fieldsOf(ast).flatMap(({ name, type }) => {
    if (name === linesField && path.length === 0) return []
    const nested = fieldsOf(type)
    return nested.length === 0 ? [{ name: [...path, name].join("."), path: [...path, name] }] : columnsOf(type, [
      ...path,
      name
    ])
  })

/**
 * The CSV columns of an export: the record's fields, a nested object's as `<field>.<field>`
 * (`customer.id`), then, for a record with lines, each line's as `lines.<field>`.
 */
export const recordColumns = (
  shape: Shape
): { readonly fields: ReadonlyArray<Column>; readonly lineFields: ReadonlyArray<Column> } => {
  const record = Schema.typeSchema(shape.record).ast
  const line = lineOf(record)
  return {
    fields: columnsOf(record, []),
    lineFields: line === undefined
      ? []
      : columnsOf(line, []).map((column) => ({ name: `${linesField}.${column.name}`, path: column.path }))
  }
}
