/**
 * Idempotent POSTs: the `Idempotency-Key` header. A POST that carries it runs in one transaction
 * with its key: the key is taken (`IdempotencyRepository.claim`), the request runs, and its answer
 * is kept under the key, all committed together. A write and the answer to it so exist together
 * or not at all, whatever process runs it and wherever it stops. A retry with the key gets that
 * answer (status, headers and body, and `idempotent-replayed: true`) without running again; the
 * key with another request is a 409. A retry that comes while the first still runs waits for its
 * end and then gets its answer. An answer of 500 or more is not kept: its transaction rolls back,
 * the key with it, and a retry runs again.
 *
 * A failure the API answers below 500 is answered, and kept, inside the key's transaction; any
 * other cause leaves the transaction as it came and is answered outside it. A deadlock or
 * serialization failure of the request thus reaches the transactor's retry as it does without a
 * key, which runs the whole transaction again, the key's claim with it: the key is written once,
 * by the run that commits. The body's text, read once, is the platform's cache for every run.
 *
 * A key belongs to its caller, found by the route's own security before the request runs; a
 * request that security refuses keeps no key (the route answers its 401 or 403), and a route
 * without a caller (`/login`) ignores the header. A request is the same when its method, path and
 * query, `site` header and body are: a SHA-256 of them, the body as the bytes the client sent
 * (read as UTF-8 text, as the API reads it). Not of the body's JSON made canonical: a retry resends
 * the bytes it sent, and comparing them needs no parse before the route's own checks of the body.
 */
import {
  HttpApi,
  HttpApiBuilder,
  type HttpApp,
  type HttpRouter,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { IdempotencyRepository, idempotencyWindowMillis, type KeptAnswer, Transactor, type UserId } from "@wms/core"
import { Cause, Clock, Data, Effect, Either, Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import { WarehouseApi } from "../Api.js"
import { AdminAuthorization, Authorization, TokenAuthentication } from "../api/Security.js"
import { isStreamed } from "../api/StreamedBody.js"
import { answerTo, responseFor, responseOf } from "./ErrorResponses.js"

/** 1 to 255 visible ASCII characters but `"` and `\`; a key may come quoted, as a structured-field string. */
const plainKey = /^[!#-[\]-~]{1,255}$/

export const invalidKeyMessage =
  "Invalid header Idempotency-Key: must be 1 to 255 visible ASCII characters other than \" and \\"

/** The key a header value names, without the quotes of its structured-field form; undefined when malformed. */
export const keyOf = (value: string): string | undefined => {
  const key = value.length > 2 && value.startsWith("\"") && value.endsWith("\"") ? value.slice(1, -1) : value
  return plainKey.test(key) ? key : undefined
}

const message = (status: number, text: string) => responseOf({ status, body: { message: text } })

/** Expired keys are forgotten at most this often, in the transaction of a request with a key. */
const forgetEveryMillis = 60 * 60 * 1000

/** The answer of a request that failed on the server's side: the transaction rolls back with it. */
class Unkept extends Data.TaggedError("Unkept")<{ readonly response: HttpServerResponse.HttpServerResponse }> {}

type Security = typeof Authorization | typeof AdminAuthorization | typeof TokenAuthentication

/** The POST routes that act for a caller, with the security that finds it, from the declaration. */
const routes: Array<{ readonly pattern: RegExp; readonly security: Security }> = []
HttpApi.reflect(WarehouseApi, {
  // An endpoint that streams its body writes as it reads: it refuses the header itself.
  predicate: ({ endpoint }) => endpoint.method === "POST" && !isStreamed(endpoint.annotations),
  onGroup: () => {},
  onEndpoint: ({ endpoint, middleware }) => {
    const security = [AdminAuthorization, Authorization, TokenAuthentication].find((tag) =>
      middleware.has(tag as never)
    )
    if (security === undefined) return
    routes.push({ pattern: new RegExp(`^${endpoint.path.replace(/:[A-Za-z_]+/g, "[^/]+")}$`), security })
  }
})

/** What a request is, for telling a retry from another request with the same key. */
const requestHash = (request: HttpServerRequest.HttpServerRequest, body: string) =>
  createHash("sha256").update(`${request.method} ${request.url}\n${request.headers.site ?? ""}\n`).update(body)
    .digest("hex")

const utf8 = new TextDecoder()

/** The answer as kept: every header but `content-length`, and the body's text. */
const answerOf = (response: HttpServerResponse.HttpServerResponse): Effect.Effect<KeptAnswer> => {
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => name !== "content-length"))
  const { body } = response
  if (body._tag === "Empty") return Effect.succeed({ status: response.status, headers, body: null })
  if (body._tag === "Uint8Array") {
    return Effect.succeed({ status: response.status, headers, body: utf8.decode(body.body) })
  }
  return Effect.dieMessage(`An answer with a ${body._tag} body cannot be kept for Idempotency-Key`)
}

const replay = (answer: KeptAnswer) => {
  const headers = { ...answer.headers, "idempotent-replayed": "true" }
  return answer.body === null
    ? HttpServerResponse.empty({ status: answer.status, headers })
    : HttpServerResponse.text(answer.body, {
      status: answer.status,
      headers,
      contentType: answer.headers["content-type"]
    })
}

/**
 * The API-level middleware. Needs the route securities, the store's `Transactor` and
 * `IdempotencyRepository`. A request without the header costs a look at the method and headers.
 */
export const layer = HttpApiBuilder.middleware(Effect.gen(function*() {
  const transactor = yield* Transactor
  const keys = yield* IdempotencyRepository
  const authorization = yield* Authorization
  const adminAuthorization = yield* AdminAuthorization
  const tokenAuthentication = yield* TokenAuthentication
  const callerOf = (
    security: Security,
    token: Redacted.Redacted<string>
  ): Effect.Effect<UserId, unknown, HttpRouter.HttpRouter.Provided> => {
    if (security === TokenAuthentication) {
      return Effect.map(tokenAuthentication.bearer(token), (principal) => principal.userId)
    }
    const check = security === AdminAuthorization ? adminAuthorization : authorization
    return Effect.map(check.bearer(token), (actor) => actor.userId)
  }
  let forgottenAt = Number.NEGATIVE_INFINITY

  const once = (app: HttpApp.Default, request: HttpServerRequest.HttpServerRequest, userId: UserId, key: string) =>
    Effect.gen(function*() {
      // A body the API cannot read (too large, cut off) is left to the route, which answers it.
      const body = yield* Effect.either(request.text)
      if (Either.isLeft(body)) return yield* app
      const hash = requestHash(request, body.right)
      const now = yield* Clock.currentTimeMillis
      const expiredBefore = new Date(now - idempotencyWindowMillis).toISOString()
      return yield* transactor.atomically(Effect.gen(function*() {
        if (now - forgottenAt >= forgetEveryMillis) {
          forgottenAt = now
          yield* keys.forgetBefore(expiredBefore)
        }
        const kept = yield* keys.claim(
          { userId, key, requestHash: hash, claimedAt: new Date(now).toISOString() },
          expiredBefore
        )
        if (Option.isSome(kept)) {
          return kept.value.requestHash === hash
            ? replay(kept.value.answer)
            : message(409, `Idempotency-Key ${key} was used with another request`)
        }
        const response = yield* Effect.catchAllCause(app, (cause) => {
          const answer = answerTo(cause, request.method, request.url)
          return typeof answer === "object" && answer.status < 500
            ? Effect.succeed(responseOf(answer))
            : Effect.failCause(cause)
        })
        if (response.status >= 500) return yield* new Unkept({ response })
        yield* keys.keep(userId, key, yield* answerOf(response))
        return response
      })).pipe(
        Effect.catchAllCause((cause) => {
          const failure = Cause.failureOption(cause)
          return Option.isSome(failure) && failure.value instanceof Unkept
            ? Effect.succeed(failure.value.response)
            : responseFor(cause)
        })
      )
    })

  return (app: HttpApp.Default) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const sent = request.headers["idempotency-key"]
      if (sent === undefined || request.method !== "POST") return app
      const path = request.url.split("?", 1)[0]
      const route = routes.find(({ pattern }) => pattern.test(path))
      if (route === undefined) return app
      // The bearer token as the platform's security reads it.
      const token = Redacted.make((request.headers.authorization ?? "").slice("Bearer ".length))
      return Effect.matchEffect(callerOf(route.security, token), {
        onFailure: () => app,
        onSuccess: (userId) => {
          const key = keyOf(sent)
          return key === undefined ? Effect.succeed(message(400, invalidKeyMessage)) : once(app, request, userId, key)
        }
      })
    })
}))
