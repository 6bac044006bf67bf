import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { Server } from "@wms/http"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { onApiTestStores } from "../../../testing/databases.js"
import { adminEmail, adminPassword, testConfig } from "../../../testing/server.js"

// One Node server per store, built once: the `HttpServer` it exposes is the one that serves.
const servers = onApiTestStores((db) =>
  Server.app(testConfig(db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url)).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0 }))
  )
)

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    if (server.address._tag !== "TcpAddress") throw new Error("the test server listens on TCP")
    const url = `http://127.0.0.1:${server.address.port}${path}`
    return yield* Effect.promise(async (signal) => {
      const response = await fetch(url, { headers, signal })
      const contentType = response.headers.get("content-type") ?? ""
      return { status: response.status, contentType, text: await response.text() }
    })
  }).pipe(Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error(`GET ${path}: no answer`) }))

const login = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  if (server.address._tag !== "TcpAddress") throw new Error("the test server listens on TCP")
  const url = `http://127.0.0.1:${server.address.port}/login`
  return yield* Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: adminEmail, password: adminPassword })
    })
    return ((await response.json()) as { token: string }).token
  })
})

const documented = ["/login", "/verifytoken", "/sites", "/clients", "/users", "/health"]

/**
 * Every reference in the page's markup that makes a browser fetch something from a host. The body
 * of an inline script is code, not markup: it is left out (its fonts are off, see the test).
 */
const externalReferences = (page: string): Array<string> => {
  const html = page.replace(/(<script\b[^>]*>)[\s\S]*?(<\/script>)/gi, "$1$2")
  const patterns = [
    /<script\b[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)/gi,
    /<link\b[^>]*\bhref\s*=\s*["']?([^"'\s>]+)/gi,
    /<(?:img|iframe|source|embed|video|audio)\b[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)/gi,
    /@import\s+(?:url\()?\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi,
    /url\(\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi
  ]
  return patterns.flatMap((pattern) => Array.from(html.matchAll(pattern), (match) => match[1]))
    .filter((reference) => /^(?:https?:)?\/\//i.test(reference))
}

for (const [label, server] of servers) {
  layer(server, { timeout: 60_000, excludeTestServices: true })(`system endpoints on ${label}`, (it) => {
    it.effect("GET /health answers 200 {status: ok} with no token and no site header", () =>
      Effect.gen(function*() {
        const response = yield* get("/health")
        assert.deepStrictEqual([response.status, JSON.parse(response.text)], [200, { status: "ok" }])
        assert.match(response.contentType, /^application\/json/)
        const token = yield* login
        const withHeaders = yield* get("/health", { authorization: `Bearer ${token}x`, site: "nowhere" })
        assert.deepStrictEqual([withHeaders.status, JSON.parse(withHeaders.text)], [200, { status: "ok" }])
      }))

    it.effect("GET /openapi.json is an OpenAPI 3 document of the whole API", () =>
      Effect.gen(function*() {
        const response = yield* get("/openapi.json")
        assert.strictEqual(response.status, 200)
        assert.match(response.contentType, /^application\/json/)
        const spec = JSON.parse(response.text)
        assert.match(spec.openapi, /^3\.\d+\.\d+$/)
        assert.isString(spec.info.title)
        assert.isString(spec.info.version)
        for (const path of documented) assert.property(spec.paths, path)
        assert.property(spec.paths["/login"], "post")
        assert.property(spec.paths["/verifytoken"], "get")
        assert.property(spec.paths["/health"], "get")
        for (const path of ["/sites", "/clients", "/users"]) {
          assert.property(spec.paths[path], "get")
          assert.property(spec.paths[path], "post")
        }
        const schemes: Array<{ type: string; scheme?: string }> = Object.values(spec.components?.securitySchemes ?? {})
        assert.isTrue(schemes.some((scheme) => scheme.type === "http" && scheme.scheme === "bearer"))
        assert.isTrue(Array.isArray(spec.paths["/sites"].get.security) && spec.paths["/sites"].get.security.length > 0)
        assert.isUndefined(spec.paths["/login"].post.security?.find((entry: object) => Object.keys(entry).length > 0))
        // JSON request bodies are open (unknown fields are ignored) and take Prefer: handling=strict; the
        // import's file (CSV, NDJSON) has no fields.
        const withBody = Object.values<
          Record<string, { requestBody?: { content: object }; parameters?: Array<{ name: string }> }>
        >(spec.paths).flatMap((operations) => Object.values(operations)).filter((operation) =>
          operation.requestBody !== undefined && "application/json" in operation.requestBody.content
        )
        assert.isAtLeast(withBody.length, 30)
        for (const operation of withBody) {
          assert.notInclude(JSON.stringify(operation.requestBody), "\"additionalProperties\":false")
          assert.isTrue(operation.parameters?.some((parameter) => parameter.name === "Prefer"))
        }
        assert.include(JSON.stringify(spec.paths["/orders/{id}"].get.responses), "\"additionalProperties\":false")
      }))

    it.effect("the document's site scheme is on exactly the operations that refuse a request without the header", () =>
      Effect.gen(function*() {
        const spec = JSON.parse((yield* get("/openapi.json")).text) as {
          readonly paths: Record<string, Record<string, { readonly security: Array<Record<string, unknown>> }>>
        }
        const token = yield* login
        const server = yield* HttpServer.HttpServer
        if (server.address._tag !== "TcpAddress") throw new Error("the test server listens on TCP")
        const origin = `http://127.0.0.1:${server.address.port}`
        const secured = Object.entries(spec.paths).flatMap(([path, operations]) =>
          Object.entries(operations).filter(([, operation]) => operation.security.length > 0)
            .map(([method, operation]) => ({ method, path, declaresSite: "site" in operation.security[0] }))
        )
        assert.isAtLeast(secured.filter((operation) => operation.declaresSite).length, 80)
        for (const { declaresSite, method, path } of secured) {
          // The site check comes before the body and the record, so nothing is written.
          const answer = yield* Effect.promise(async () => {
            const response = await fetch(`${origin}${path.replace(/\{[^}]+\}/g, "1")}`, {
              method: method.toUpperCase(),
              headers: { authorization: `Bearer ${token}` }
            })
            return { status: response.status, text: await response.text() }
          })
          const refused = answer.status === 403 && answer.text.includes("Missing header site")
          assert.strictEqual(refused, declaresSite, `${method.toUpperCase()} ${path}: ${answer.status} ${answer.text}`)
        }
      }))

    it.effect("GET /docs renders the API in a page that loads nothing from another host", () =>
      Effect.gen(function*() {
        const response = yield* get("/docs", { accept: "text/html" })
        assert.strictEqual(response.status, 200)
        assert.match(response.contentType, /^text\/html/)
        const html = response.text
        assert.match(html, /^<!doctype html>/i)
        assert.include(html, "Warehouse Management Service API")
        assert.match(html, /<script\b[^>]*>[\s\S]{10000,}<\/script>/, "the renderer is inline")
        assert.deepStrictEqual(externalReferences(html), [])
        assert.notMatch(html, /<script\b[^>]*\bsrc\s*=/i)
        const configuration = html.match(/dataset\.configuration = JSON\.stringify\((\{[^\n]*\})\)/)
        assert.isNotNull(configuration)
        assert.strictEqual(JSON.parse(configuration![1]).withDefaultFonts, false)
        const sample = [
          "<script src=\"https://cdn.example/x.js\"></script>",
          "<link rel=\"stylesheet\" href=\"//fonts.example/a.css\">",
          "<style>@font-face { src: url(https://fonts.example/b.woff2) }</style>",
          "<script>const u = \"https://x\"</script>"
        ].join("")
        assert.deepStrictEqual(externalReferences(sample), [
          "https://cdn.example/x.js",
          "//fonts.example/a.css",
          "https://fonts.example/b.woff2"
        ])
      }))
  })
}
