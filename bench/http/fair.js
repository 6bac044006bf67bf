/**
 * The fair peer of the HTTP benchmark: `GET /orders/:id`, `GET /orders` and `POST /orders` on
 * Fastify doing the engine's work per request, so that the bundled server is measured against what
 * a careful Fastify service of the same contract costs, not against one that skips half of it (the
 * limit and bare Fastify check no token and write no log). Per request, as the engine does:
 *
 * - the bearer token: an HS256 JWT verified with jose once and then kept (10,000 at most, until it
 *   expires), its claims checked as `Tokens.ts` checks them; then the token's user, re-read at most
 *   every 5 s (`Administration.checkSession`): it must exist, be active and have the token's version;
 * - the `site` header: the site or client it names, looked up once and then kept, and the scope rule
 *   of `Tenancy.resolveScope` (an admin may use any site, another user only its home site or client);
 * - the path, query and body checked with the engine's messages, the body first as `JsonBody.ts`
 *   (1 MiB, 32 levels, no U+0000), then field by field as the `NewOrder` schema decodes it;
 * - the engine's statements (`fair-store.js`), one plain function per route, the write in one transaction;
 * - byte-identical answers: the same JSON (serialized by fast-json-stringify from the response
 *   schemas), `content-type: application/json`, the same error bodies, an `x-request-id`;
 * - one JSON access line through pino (Fastify's logger) with the engine's fields, the lines of one
 *   turn of the event loop written together as the engine writes them, and the request counted in
 *   plain numbers as `Metrics.ts` counts it, beside prom-client's process metrics on `GET /metrics`.
 *
 * `node bench/http/fair.js` with `PORT`, `WMS_DATABASE_URL` (a database the engine has migrated),
 * `WMS_JWT_SECRET` (else the key the engine keeps in the database), `WMS_TIMEZONE`, `WMS_ACCESS_LOG`
 * and `WMS_METRICS` as the engine reads them. Requests other than JSON bodies (another content
 * type) are answered as Fastify answers them; the engine hands them to its `HttpApi`.
 */
import Fastify from "fastify"
import { errors as joseErrors, jwtVerify } from "jose"
import { randomUUID } from "node:crypto"
import { collectDefaultMetrics, Registry } from "prom-client"
import { Failure, invalidField, openFairStore } from "./fair-store.js"
import { order, orderRecord } from "./orderSchemas.js"

const flag = (name) => (process.env[name] ?? "true").toLowerCase() !== "false"
const timeZone = process.env.WMS_TIMEZONE ?? "UTC"
const accessLog = flag("WMS_ACCESS_LOG")
const metricsOn = flag("WMS_METRICS")
const store = openFairStore(process.env.WMS_DATABASE_URL, timeZone)
const secret = process.env.WMS_JWT_SECRET ?? (await store.storedSecret())
if (secret === undefined) throw new Error("fair peer: no WMS_JWT_SECRET and no key in the database")
const key = new TextEncoder().encode(secret)

const maxBodyBytes = 1024 * 1024
const maxInteger = 2147483647
const cacheSize = 10_000
const sessionCacheMillis = 5_000

// Security: token, session, site ------------------------------------------------------------------

const missingToken = new Failure(401, "Missing authorization token")
const invalidToken = new Failure(401, "Authorization token not valid")
const missingSite = new Failure(403, "Missing header site")
const invalidSite = new Failure(403, "Invalid site")

/** Keeps `value` under `key`, the oldest entry dropped first once the map holds `cacheSize`. */
const keep = (map, key, value) => {
  if (map.size >= cacheSize) map.delete(map.keys().next().value)
  map.set(key, value)
}

const isIdText = (value) =>
  typeof value === "string" && value.length >= 1 && value.length <= 64 && !value.includes("\u0000")

/** The claims of a verified token as `Tokens.ts` decodes them, or undefined. */
const principalOf = (payload) => {
  const { admin, client, exp, site, sub } = payload
  const ver = Object.hasOwn(payload, "ver") ? payload.ver : 0
  if (typeof sub !== "string" || sub.length === 0 || typeof exp !== "number" || typeof admin !== "boolean") return
  if (!isIdText(site) || !(client === null || isIdText(client)) || typeof ver !== "number") return
  return { principal: { userId: sub, admin, site, client }, tokenVersion: ver, expiresAt: Math.ceil(exp) * 1000 }
}

const verified = new Map()
const sessions = new Map()
const targets = new Map()

/** Whether the token's user still stands: read at most every 5 s. */
const standing = async ({ principal, tokenVersion }) => {
  const now = Date.now()
  let session = sessions.get(principal.userId)
  if (session === undefined || now - session.readAt >= sessionCacheMillis) {
    const user = await store.findUser(principal.userId)
    if (user === undefined) {
      sessions.delete(principal.userId)
      throw invalidToken
    }
    session = { active: user.active === 1, tokenVersion: user.token_version, readAt: now }
    keep(sessions, principal.userId, session)
  }
  if (!session.active || session.tokenVersion !== tokenVersion) throw invalidToken
  return principal
}

const verify = async (token) => {
  const now = Date.now()
  const cached = verified.get(token)
  if (cached !== undefined) {
    if (now < cached.expiresAt) return standing(cached)
    verified.delete(token)
    throw invalidToken
  }
  let payload
  try {
    ;({ payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      requiredClaims: ["sub", "iat", "exp"],
      currentDate: new Date(now)
    }))
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) throw invalidToken
    throw error
  }
  const entry = principalOf(payload)
  if (entry === undefined) throw invalidToken
  keep(verified, token, entry)
  return standing(entry)
}

/** The site or client a `site` header names; only what is found is kept (neither is ever changed). */
const targetOf = async (id) => {
  const cached = targets.get(id)
  if (cached !== undefined) return cached
  const site = await store.findSite(id)
  let target
  if (site !== undefined) target = { site_id: site.site_id, fulfillment: site.fulfillment === 1, client_id: null }
  else {
    const client = await store.findClient(id)
    if (client !== undefined) {
      target = { site_id: client.site_id, fulfillment: client.fulfillment === 1, client_id: client.client_id }
    }
  }
  if (target !== undefined) keep(targets, id, target)
  return target
}

/** `Tenancy.resolveScope`: an admin may use any site and client, another user only its own. */
const scopeOf = (principal, target) => {
  if (target === undefined) throw invalidSite
  if (principal.admin) return target
  if (target.site_id !== principal.site) throw invalidSite
  if (principal.client !== null && target.client_id !== principal.client) throw invalidSite
  return target
}

// `Bearer` in any case, then the token; another scheme or a bare token carries no token.
const bearerHeader = /^bearer[ \t]+(.*)$/i

/** The caller: the token (401), then the `site` header (403). A declared body over 1 MiB is a 413 first. */
const authenticate = async (request) => {
  if (request.method === "POST" && Number(request.headers["content-length"] ?? 0) > maxBodyBytes) throw bodyTooLarge
  const bearer = bearerHeader.exec(request.headers.authorization ?? "")
  const token = bearer === null ? "" : bearer[1].trim()
  if (token === "") throw missingToken
  const principal = await verify(token)
  const site = request.headers.site?.trim()
  if (site === undefined || site === "") throw missingSite
  request.actor = { userId: principal.userId, admin: principal.admin, scope: scopeOf(principal, await targetOf(site)) }
}

// Input checks, with the engine's messages --------------------------------------------------------

const bodyTooLarge = new Failure(413, "Request body is larger than 1 MiB")
const invalidJson = "Request body is not valid JSON"
const maxBodyDepth = 32

/** `JsonBody.bodyProblem`: a nesting too deep or a U+0000 anywhere. */
const bodyProblem = (body) => {
  const invalid = (path, message) =>
    path.length === 0 ? `Request body ${message}` : `Invalid field ${path.join(".")}: ${message}`
  const visit = (value, path) => {
    if (typeof value === "string") {
      return value.includes("\u0000")
        ? invalid(path, "must not contain NUL characters")
        : undefined
    }
    if (typeof value !== "object" || value === null) return undefined
    if (path.length >= maxBodyDepth) return `Request body is nested more than ${maxBodyDepth} levels deep`
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = visit(value[i], [...path, i])
        if (problem !== undefined) return problem
      }
      return undefined
    }
    for (const [key, field] of Object.entries(value)) {
      if (key.includes("\u0000")) return invalid(path, "must not contain a key with NUL characters")
      const problem = visit(field, [...path, key])
      if (problem !== undefined) return problem
    }
    return undefined
  }
  return visit(body, [])
}

/** A JSON value as effect's `Inspectable.formatUnknown` shows it in a schema's message. */
const formatValue = (value) => {
  if (Array.isArray(value)) return `[${value.map(formatValue).join(",")}]`
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value !== "object" || value === null) return String(value)
  const body = `{${Object.keys(value).map((key) => `${JSON.stringify(key)}:${formatValue(value[key])}`).join(",")}}`
  const ctor = value.constructor
  return ctor && ctor !== Object && ctor.name ? `${ctor.name}(${body})` : body
}

const expected = (type, value) => `Expected ${type}, actual ${formatValue(value)}`
const expectedLine = "{ readonly sku_id: { { { string | filter } | filter } | filter }; readonly qty: " +
  "{ { { number | filter } | filter } | filter }; readonly line?: { number | filter } | null | undefined }"
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value)

// Each check answers the problem of a present value, or undefined; as the schemas of `Orders.ts`.
const storedText = (value) => {
  if (typeof value !== "string") return expected("string", value)
  if (value.includes("\u0000")) return "must not contain NUL characters"
  if (loneSurrogate.test(value)) return "must be valid Unicode text"
}
const orderIdProblem = (value) =>
  storedText(value) ??
    (value.trim() === "" ? "must not be empty" : value.length > 100 ? "must be at most 100 characters" : undefined)
const recordIdProblem = (value) => {
  if (typeof value !== "number") return expected("number", value)
  if (!(Number.isInteger(value) && value >= 1 && value <= maxInteger)) return "must be an integer id"
}
const isCalendarDate = (value) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (match === null) return false
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))).toISOString().startsWith(value)
}
const dateProblem = (value) => {
  if (typeof value !== "string") return expected("string", value)
  if (!isCalendarDate(value)) return "must be a date YYYY-MM-DD"
}
const quantityProblem = (value) => {
  if (typeof value !== "number") return expected("number", value)
  if (!(Number.isInteger(value) && value >= 1)) return "must be an integer of at least 1"
  if (value > maxInteger) return `must be at most ${maxInteger}`
}
const lineNumberProblem = (value) => {
  if (typeof value !== "number") return expected("number", value)
  if (!(Number.isInteger(value) && value >= 1 && value <= maxInteger)) {
    return `must be an integer from 1 to ${maxInteger}`
  }
}
const skuProblem = (value) => storedText(value) ?? (value === "" ? "must not be empty" : undefined)

const missing = (field) => new Failure(400, `Missing field ${field}`)

/** An optional field that may be null: checked when it holds a value. */
const optional = (body, field, problemOf, path = field) => {
  const value = body[field]
  if (value === null || value === undefined) return
  const problem = problemOf(value)
  if (problem !== undefined) throw invalidField(path, problem)
}

/** The body of `POST /orders`, checked as the `NewOrder` schema decodes it: the first problem in field order. */
const checkNewOrder = (body) => {
  if (!isRecord(body)) throw new Failure(400, "Request body must be a JSON object")
  if (!Object.hasOwn(body, "order_id")) throw missing("order_id")
  const idProblem = orderIdProblem(body.order_id)
  if (idProblem !== undefined) throw invalidField("order_id", idProblem)
  optional(body, "customer_id", recordIdProblem)
  optional(body, "order_date", dateProblem)
  optional(body, "ship_by_date", dateProblem)
  optional(body, "carrier_id", recordIdProblem)
  optional(body, "ship_dock", storedText)
  const { lines } = body
  if (lines === null || lines === undefined) return body
  if (!Array.isArray(lines)) throw invalidField("lines", "must be an array of order lines")
  lines.forEach((line, i) => {
    if (!isRecord(line)) throw invalidField(`lines.${i}`, expected(expectedLine, line))
    if (!Object.hasOwn(line, "sku_id")) throw missing(`lines.${i}.sku_id`)
    const sku = skuProblem(line.sku_id)
    if (sku !== undefined) throw invalidField(`lines.${i}.sku_id`, sku)
    if (!Object.hasOwn(line, "qty")) throw missing(`lines.${i}.qty`)
    const qty = quantityProblem(line.qty)
    if (qty !== undefined) throw invalidField(`lines.${i}.qty`, qty)
    optional(line, "line", lineNumberProblem, `lines.${i}.line`)
  })
  return body
}

const wholeNumber = /^\d{1,9}$/

/** The query of `GET /orders`: `lines`, `limit` and `offset`, each a text when given. */
const checkListQuery = (query) => {
  for (const field of ["lines", "limit", "offset"]) {
    const value = query[field]
    if (value === undefined) continue
    if (typeof value !== "string") throw invalidField(field, expected("string", value))
    if (field !== "lines" && !wholeNumber.test(value)) {
      throw invalidField(field, "must be a whole number from 0 to 999999999")
    }
  }
  const offset = query.offset === undefined ? 0 : Number(query.offset)
  return {
    lines: query.lines !== "false",
    offset,
    end: query.limit === undefined ? undefined : offset + Number(query.limit)
  }
}

// Access lines and metrics ------------------------------------------------------------------------

// The lines of one turn of the event loop go out in one write, as the engine's do: pino formats each
// line, and neither server pays a system call per request.
let waiting = ""
const flush = () => {
  const lines = waiting
  waiting = ""
  if (lines !== "") process.stdout.write(lines)
}
process.once("exit", flush)
const accessLines = {
  write: (line) => {
    if (waiting === "") setImmediate(flush)
    waiting += line
    if (waiting.length >= 65_536) flush()
  }
}

const durationBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
const labelValue = (value) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, "\\\"")

/** `http_requests_total` and `http_request_duration_seconds` in plain numbers, as `Metrics.ts` counts them. */
const requestSeries = () => {
  const series = new Map()
  return {
    record: (method, route, status, seconds) => {
      const key = `${method} ${route}`
      let one = series.get(key)
      if (one === undefined) {
        one = {
          labels: `method="${labelValue(method)}",route="${labelValue(route)}"`,
          statuses: new Map(),
          buckets: new Array(durationBuckets.length + 1).fill(0),
          sum: 0,
          count: 0
        }
        series.set(key, one)
      }
      one.statuses.set(status, (one.statuses.get(status) ?? 0) + 1)
      let bucket = 0
      while (bucket < durationBuckets.length && seconds > durationBuckets[bucket]) bucket++
      one.buckets[bucket]++
      one.sum += seconds
      one.count++
    },
    text: () => {
      const requests = ["# TYPE http_requests_total counter"]
      const durations = ["# TYPE http_request_duration_seconds histogram"]
      for (const one of series.values()) {
        for (const [status, count] of one.statuses) {
          requests.push(`http_requests_total{${one.labels},status="${status}"} ${count}`)
        }
        let cumulative = 0
        one.buckets.forEach((count, i) => {
          cumulative += count
          const le = i < durationBuckets.length ? String(durationBuckets[i]) : "+Inf"
          durations.push(`http_request_duration_seconds_bucket{le="${le}",${one.labels}} ${cumulative}`)
        })
        durations.push(`http_request_duration_seconds_sum{${one.labels}} ${one.sum}`)
        durations.push(`http_request_duration_seconds_count{${one.labels}} ${one.count}`)
      }
      return `${requests.join("\n")}\n\n${durations.join("\n")}\n`
    }
  }
}

const requests = requestSeries()
const registry = new Registry()
if (metricsOn) collectDefaultMetrics({ register: registry })

const plainId = /^[A-Za-z0-9._:-]{1,128}$/

// The server ---------------------------------------------------------------------------------------

const app = Fastify({
  logger: accessLog
    ? {
      level: "info",
      base: null,
      messageKey: "message",
      timestamp: () => `,"timestamp":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ logLevel: label.toUpperCase() }) },
      stream: accessLines
    }
    : false,
  disableRequestLogging: true,
  requestIdLogLabel: "request_id",
  genReqId: (request) => {
    const incoming = request.headers["x-request-id"]
    return incoming !== undefined && plainId.test(incoming) ? incoming : randomUUID()
  },
  bodyLimit: maxBodyBytes,
  // A path parameter over 100 characters or with a broken escape is a route the engine's router does
  // not know. These answers skip the hooks: the content type is set here, and a serializer of the
  // reply's own keeps it as set.
  frameworkErrors: (_error, request, reply) => {
    notFound(request, reply.header("x-request-id", request.id).type("application/json").serializer(JSON.stringify))
    record(request, reply)
  }
})

// The body as the engine reads it: an empty one is null, then the checks of `JsonBody.ts`.
app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
  let body
  try {
    body = text === "" ? null : JSON.parse(text)
  } catch {
    return done(new Failure(400, invalidJson))
  }
  const problem = bodyProblem(body)
  done(problem === undefined ? null : new Failure(400, problem), body)
})

app.setErrorHandler((error, request, reply) => {
  if (error instanceof Failure) return reply.code(error.status).send({ message: error.message })
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return reply.code(413).send({ message: bodyTooLarge.message })
  request.log.error({ err: error }, "Unexpected failure")
  return reply.code(500).send({ message: "Internal server error" })
})

const pathOf = (url) => url.split("?", 1)[0]

function notFound(request, reply) {
  return reply.code(404).send({ message: `Route ${request.method} ${pathOf(request.url)} not found` })
}
app.setNotFoundHandler(notFound)

app.addHook("onRequest", (request, reply, done) => {
  reply.header("x-request-id", request.id)
  done()
})

// Fastify adds `; charset=utf-8` to every JSON answer; the engine's content type has none.
app.addHook("onSend", (_request, reply, payload, done) => {
  if (reply.getHeader("content-type") === "application/json; charset=utf-8") {
    reply.header("content-type", "application/json")
  }
  done(null, payload)
})

// The route template of a request, as `RouteTemplates.routeOf` labels it: a request no route takes
// (a 404 of the router) still gets the template its method and path match.
const templates = []
app.addHook("onRoute", ({ method, url }) => {
  const pattern = new RegExp(`^${url.replace(/:[A-Za-z_]+/g, "[^/]+")}$`)
  for (const one of [method].flat()) templates.push({ method: one, url, pattern })
})
const routeOf = (request) => {
  if (request.routeOptions.url !== undefined) return request.routeOptions.url
  const path = pathOf(request.url)
  return templates.find((one) => one.method === request.method && one.pattern.test(path))?.url ?? "unmatched"
}

/** Counts an answered request and writes its access line. */
function record(request, reply) {
  const route = routeOf(request)
  const milliseconds = reply.elapsedTime
  if (metricsOn) requests.record(request.method, route, reply.statusCode, milliseconds / 1000)
  if (accessLog) {
    request.log.info({
      method: request.method,
      path: pathOf(request.url),
      route,
      status: reply.statusCode,
      duration_ms: Math.round(milliseconds * 100) / 100
    }, "request")
  }
}

app.addHook("onResponse", (request, reply, done) => {
  record(request, reply)
  done()
})

const orders = { onRequest: authenticate }

app.get("/health", async () => ({ status: "ok" }))

app.get("/metrics", async (_request, reply) => {
  if (!metricsOn) return reply.callNotFound()
  return reply.type(registry.contentType).send(`${await registry.metrics()}\n${requests.text()}`)
})

app.get("/orders", { ...orders, schema: { response: { 200: { type: "array", items: order } } } }, async (request) => {
  const { end, lines, offset } = checkListQuery(request.query)
  const items = await store.listOrders(request.actor.scope, lines)
  return offset === 0 && end === undefined ? items : items.slice(offset, end)
})

app.get("/orders/:id", { ...orders, schema: { response: { 200: orderRecord } } }, async (request) => {
  const { id } = request.params
  const problem = storedText(id)
  if (problem !== undefined) throw invalidField("id", problem)
  const found = await store.getOrder(request.actor.scope, id)
  if (found === undefined) throw new Failure(404, `Order with OrderID ${id} not found`)
  return found
})

app.post("/orders", orders, async (request, reply) => {
  await store.createOrder(request.actor, checkNewOrder(request.body ?? null))
  return reply.code(204).send()
})

await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? "127.0.0.1" })
process.on("SIGTERM", () => app.close().then(() => store.close()).then(() => process.exit(0)))
