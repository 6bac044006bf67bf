/**
 * The API reference of `docs/API.md`, written from the API's declaration (its OpenAPI document) and
 * the core's value tables, so that it cannot drift from what the server does. `npm run docs:api`
 * writes it; `ApiReference.test.ts` fails when the committed file differs.
 */
import { OpenApi } from "@effect/platform"
import { criteria, EventTypes, pickTypes, Status, statusDescription, type StatusId, Stock } from "@wms/core"
import { WarehouseApi } from "../Api.js"

/** The JSON Schema keywords the document uses, read loosely: the reference only describes them. */
interface Node {
  readonly $ref?: string
  readonly type?: string
  readonly anyOf?: ReadonlyArray<Node>
  readonly enum?: ReadonlyArray<unknown>
  readonly items?: Node
  readonly properties?: Readonly<Record<string, Node>>
  readonly required?: ReadonlyArray<string>
  readonly description?: string
  readonly minLength?: number
  readonly maxLength?: number
}

interface Row {
  readonly name: string
  readonly type: string
  readonly required: boolean
  readonly notes: string
}

// Which records carry each status: a new status fails to compile until it is described here.
const statusUse: Record<StatusId, string> = {
  1: "pre-advice",
  2: "pre-advice (some lines received)",
  3: "pre-advice (every line fully received)",
  14: "order, wave, hold (released)",
  15: "order (every line fully allocated), wave (started)",
  16: "order (some, not all, quantity allocated)",
  17: "order, wave (picking started)",
  18: "order (all its tasks done)",
  19: "order",
  20: "wave (all its tasks done), movement task (confirmed)",
  21: "movement task, count (cancelled)",
  22: "count (released: its location is frozen while it is counted)",
  23: "count (recorded with a variance over the site's threshold: waits for an admin's approval)",
  24: "hold (its stock is not available)"
}

const methods = ["get", "post", "put", "delete", "patch"] as const

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ")

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`)
  ].join("\n")

const code = (text: string) => `\`${text}\``

/** Paths as the contract writes them: `/orders/:id`. */
const contractPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1")

const refName = (node: Node) => node.$ref?.split("/").pop()

const makeReader = (components: Readonly<Record<string, Node>>) => {
  const resolve = (node: Node): Node => {
    const name = refName(node)
    return name === undefined ? node : resolve(components[name]!)
  }

  /** The variants of a value other than `null`, and whether it may be `null`. */
  const variants = (node: Node): { readonly values: ReadonlyArray<Node>; readonly nullable: boolean } => {
    const resolved = resolve(node)
    if (resolved.anyOf === undefined) return { values: [resolved], nullable: false }
    const all = resolved.anyOf.map(resolve)
    return { values: all.filter((variant) => variant.type !== "null"), nullable: all.some((v) => v.type === "null") }
  }

  const typeOf = (node: Node): string => {
    const { nullable, values } = variants(node)
    const names = [...new Set(values.map(typeOfVariant))]
    return [...names, ...(nullable ? ["null"] : [])].join(" or ")
  }

  const typeOfVariant = (node: Node): string => {
    if (node.enum !== undefined) return node.enum.map((value) => JSON.stringify(value)).join(" \\| ")
    if (node.type === "array") return `array of ${node.items === undefined ? "any" : plural(node.items)}`
    return node.type ?? "any"
  }

  const plural = (node: Node) => {
    const type = typeOf(node)
    return type === "object" ? "objects" : type
  }

  const lengthNote = (node: Node) => {
    const { minLength, maxLength } = variants(node).values[0] ?? {}
    if (minLength !== undefined && maxLength !== undefined) return `${minLength} to ${maxLength} characters`
    if (minLength === 1) return "not empty"
    if (minLength !== undefined) return `at least ${minLength} characters`
    if (maxLength !== undefined) return `at most ${maxLength} characters`
    return ""
  }

  /** The object a field holds, directly or as the items of its array, whose fields are listed under it. */
  const nested = (node: Node): { readonly object: Node; readonly suffix: string } | undefined => {
    const { values } = variants(node)
    if (values.length !== 1) return undefined
    const value = values[0]!
    if (value.properties !== undefined) return { object: value, suffix: "." }
    const items = value.type === "array" && value.items !== undefined ? variants(value.items).values : []
    if (items.length === 1 && items[0]!.properties !== undefined) return { object: items[0]!, suffix: "[]." }
    return undefined
  }

  const rows = (object: Node, prefix = ""): ReadonlyArray<Row> =>
    Object.entries(object.properties ?? {}).flatMap(([name, field]) => {
      const inner = nested(field)
      const row: Row = {
        name: prefix + name,
        type: typeOf(field),
        required: object.required?.includes(name) ?? false,
        // A length says more than the text effect generates for it (`a string at most 64 character(s) long`).
        notes: lengthNote(field) || (field.description ?? resolve(field).description ?? "")
      }
      return [row, ...(inner === undefined ? [] : rows(inner.object, `${prefix}${name}${inner.suffix}`))]
    })

  /** A body or a response: its fields as a table, or its type when it has no fields. */
  const shape = (node: Node, columns: "request" | "response"): string => {
    const { nullable, values } = variants(node)
    if (values.length > 1 || nullable) {
      const shapes = values.map((value) => shape(value, columns))
      return ["One of these:", ...shapes, ...(nullable ? ["or `null`."] : [])].join("\n\n")
    }
    const value = values[0]!
    const items = value.type === "array" && value.items !== undefined ? variants(value.items).values : []
    const object = value.properties !== undefined
      ? value
      : items.length === 1 && items[0]!.properties !== undefined
      ? items[0]!
      : undefined
    if (object === undefined) return `${code(typeOf(value))}.`
    const lead = object === value ? "An object:" : "An array of objects:"
    const fields = rows(object)
    if (fields.length === 0) return `${lead} no fields.`
    return columns === "request"
      ? `${lead}\n\n${
        table(
          ["Field", "Type", "Required", "Notes"],
          fields.map((row) => [code(row.name), row.type, row.required ? "yes" : "no", row.notes])
        )
      }`
      : `${lead}\n\n${
        table(
          ["Field", "Type", "Notes"],
          fields.map((row) => [
            code(row.name),
            row.type,
            [row.required ? "" : "may be absent", row.notes].filter((n) => n).join("; ")
          ])
        )
      }`
  }

  return { resolve, shape, typeOf }
}

interface ErrorLine {
  readonly status: string
  readonly name: string
  readonly message: string
}

/** The errors a response of `status` may be: one per error schema, each with its message template. */
const errorLines = (
  status: string,
  response: OpenApi.OpenApiSpecResponse,
  components: Readonly<Record<string, Node>>
): ReadonlyArray<ErrorLine> => {
  const schema = response.content?.["application/json"]?.schema as Node | undefined
  const members = schema === undefined ? [] : schema.anyOf ?? [schema]
  const named = members.flatMap((member) => {
    const name = refName(member)
    // The platform's decode failure goes out as `{message}`, as InvalidInput does, and is described by it.
    if (name === "HttpApiDecodeError") return []
    return [{ status, name: name ?? "", message: (name && components[name]?.description) || response.description }]
  })
  return named.length > 0 ? named : [{ status, name: "", message: response.description }]
}

const keyOf = (error: ErrorLine) => `${error.status} ${error.name} ${error.message}`

const errorTable = (errors: ReadonlyArray<ErrorLine>) =>
  table(
    ["Status", "Message"],
    errors.map((error) => [error.status, error.message.includes("<") ? code(error.message) : error.message])
  )

const values = () =>
  [
    "## Values",
    "",
    "### Statuses",
    "",
    "One table serves orders, pre-advices, waves and movement tasks; records show a status as `{id, description}` " +
    "or its description, or as `status` and `status_id`.",
    "",
    table(
      ["id", "description", "used by"],
      Object.values(Status).map((id) => [String(id), statusDescription(id), statusUse[id]])
    ),
    "",
    "### Transaction types",
    "",
    Stock.TransactionTypes.map(code).join(", "),
    "",
    "### Event types",
    "",
    EventTypes.map(code).join(", "),
    "",
    "### Wave criteria and pick types",
    "",
    table(["criterium_id", "criterium"], Object.entries(criteria).map(([id, text]) => [id, text])),
    "",
    table(["pick_type", "picktypedescription"], Object.entries(pickTypes).map(([id, text]) => [id, text]))
  ].join("\n")

/** The reference: `intro` (hand-written Markdown), then the values, the shared errors and every endpoint. */
export const apiReference = (intro: string): string => {
  const spec = OpenApi.fromApi(WarehouseApi)
  const components = spec.components.schemas as unknown as Readonly<Record<string, Node>>
  const reader = makeReader(components)

  const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = item[method]
      return operation === undefined ? [] : [{ method: method.toUpperCase(), path: contractPath(path), operation }]
    })
  )
  const errorsOf = (operation: OpenApi.OpenAPISpecOperation) =>
    Object.entries(operation.responses)
      .filter(([status]) => Number(status) >= 400)
      .flatMap(([status, response]) => errorLines(status, response, components))
  // What every endpoint can answer is listed once, above the endpoints.
  const shared = errorsOf(operations[0]!.operation).filter((error) =>
    operations.every(({ operation }) => errorsOf(operation).some((other) => keyOf(other) === keyOf(error)))
  )
  const sharedKeys = new Set(shared.map(keyOf))

  const endpoint = ({ method, operation, path }: (typeof operations)[number]) => {
    const errors = errorsOf(operation).filter((error) => !sharedKeys.has(keyOf(error)))
    const access = operation.security.length === 0
      ? "No token and no `site` header."
      : errors.some((error) => error.status === "403")
      ? "`Authorization: Bearer <token>` and `site`."
      : "`Authorization: Bearer <token>` only, no `site` header."
    // Headers are described once, in the introduction; the endpoint lists its path and query parameters.
    const parameters = operation.parameters.filter((parameter) => parameter.in !== "header")
    const body = operation.requestBody?.content["application/json"]?.schema as Node | undefined
    // A body or an answer that is no JSON is a file, in the media types it lists.
    const fileOf = (content: Readonly<Record<string, unknown>> | undefined) =>
      content === undefined || "application/json" in content ? undefined : Object.keys(content).map(code).join(" or ")
    const bodyFile = fileOf(operation.requestBody?.content)
    const successes = Object.entries(operation.responses).filter(([status]) => Number(status) < 400)
    return [
      `#### ${code(`${method} ${path}`)}`,
      "",
      ...(operation.description === undefined ? [] : [operation.description, ""]),
      access,
      "",
      ...(parameters.length === 0 ? [] : [
        "Parameters:",
        "",
        table(
          ["Name", "In", "Type", "Required", "Notes"],
          parameters.map((parameter) => [
            code(parameter.name),
            parameter.in,
            reader.typeOf(parameter.schema as Node),
            parameter.required ? "yes" : "no",
            parameter.description ?? ""
          ])
        ),
        ""
      ]),
      ...(body === undefined ? [] : ["Request body: " + reader.shape(body, "request"), ""]),
      ...(bodyFile === undefined ? [] : [`Request body: a file, ${bodyFile}.`, ""]),
      ...successes.flatMap(([status, response]) => {
        const schema = response.content?.["application/json"]?.schema as Node | undefined
        const located = (response as { readonly headers?: Record<string, unknown> }).headers?.Location !== undefined
        const file = fileOf(response.content)
        return [
          file !== undefined
            ? `Success: ${status}, a file: ${file}.`
            : schema === undefined
            ? `Success: ${status}, no body${located ? "; `Location` is the new record's path, which `GET` reads" : ""}.`
            : `Success: ${status}${located ? ", the new record; `Location` is its path, which `GET` reads" : ""}. ${
              reader.shape(schema, "response")
            }`,
          ""
        ]
      }),
      ...(errors.length === 0 ? [] : ["Errors:", "", errorTable(errors), ""])
    ].join("\n")
  }

  const groups = spec.tags.map((tag) => {
    const members = operations.filter(({ operation }) => operation.tags.includes(tag.name))
    return [
      `### ${tag.name}`,
      "",
      ...(tag.description === undefined ? [] : [tag.description, ""]),
      ...members.map(endpoint)
    ].join("\n")
  })

  return [
    "<!-- Written by `npm run docs:api` from the API's declaration (packages/http/src/derived/ApiReference.ts) and the",
    "introduction in packages/http/scripts/api-intro.md. Do not edit: ApiReference.test.ts fails when it differs. -->",
    "",
    intro.trim(),
    "",
    values(),
    "",
    "## Errors every endpoint can answer",
    "",
    errorTable(shared),
    "",
    "## Endpoints",
    "",
    groups.join("\n")
  ].join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n"
}
