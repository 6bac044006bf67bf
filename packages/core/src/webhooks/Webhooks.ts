/**
 * Webhooks (§2.10, §4.8, §6, DECISIONS §8). A webhook belongs to the scope that created it: one
 * created with a site id receives the events of the whole site, one created with a client id only
 * that client's events, and only that scope (or its site) sees it.
 */
import { Effect, Option } from "effect"
import { formatDateTime, TimeZone } from "../shared/Formats.js"
import { type Actor, canSee, ownerOf } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import type { ListWindow } from "../shared/Window.js"
import { WebhookNotFound } from "./Errors.js"
import type { Delivery, StoredWebhook, Webhook, WebhookInput } from "./Webhook.js"
import { WebhookRepository } from "./WebhookRepository.js"
import { webhookTargetCheck } from "./WebhookTargets.js"

const notFound = new WebhookNotFound()

export class Webhooks extends Effect.Service<Webhooks>()("@wms/core/Webhooks", {
  effect: Effect.gen(function*() {
    const repository = yield* WebhookRepository
    const { atomically } = yield* Transactor
    const checkTarget = yield* webhookTargetCheck

    const show = (webhook: StoredWebhook, timeZone: string): Webhook => ({
      ...webhook,
      secret: webhook.secret === "" ? null : webhook.secret,
      created_at: formatDateTime(webhook.created_at, timeZone)
    })

    const visible = (actor: Actor, id: number) =>
      Effect.flatMap(
        repository.find(id),
        (found) =>
          Option.isSome(found) && canSee(actor.scope, found.value) ? Effect.succeed(found.value) : Effect.fail(notFound)
      )

    const list = Effect.fnUntraced(function*(actor: Actor, window: ListWindow = {}) {
      const timeZone = yield* TimeZone
      const webhooks = yield* repository.list(actor.scope, window)
      return webhooks.map((webhook) => show(webhook, timeZone))
    })

    const get = Effect.fnUntraced(function*(actor: Actor, id: number) {
      return show(yield* visible(actor, id), yield* TimeZone)
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: WebhookInput) {
      yield* checkTarget(input.url)
      const createdAt = new Date(yield* Effect.clockWith((clock) => clock.currentTimeMillis)).toISOString()
      return yield* repository.insert(ownerOf(actor.scope), { ...input, secret: input.secret || null }, createdAt)
    }, atomically)

    const update = Effect.fnUntraced(function*(actor: Actor, id: number, input: WebhookInput) {
      yield* checkTarget(input.url)
      yield* visible(actor, id)
      if (!(yield* repository.update(id, { ...input, secret: input.secret || null }))) return yield* notFound
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, id: number) {
      yield* visible(actor, id)
      yield* repository.remove(id)
    }, atomically)

    const deliveries = Effect.fnUntraced(function*(actor: Actor, id: number, window: ListWindow = {}) {
      yield* visible(actor, id)
      const timeZone = yield* TimeZone
      const show = (iso: string | null) => (iso === null ? null : formatDateTime(iso, timeZone))
      const log = yield* repository.deliveries(id, window)
      return log.map((delivery): Delivery => ({
        ...delivery,
        next_attempt_at: show(delivery.next_attempt_at),
        delivered_at: show(delivery.delivered_at),
        created_at: formatDateTime(delivery.created_at, timeZone)
      }))
    })

    return {
      listWebhooks: list,
      getWebhook: get,
      createWebhook: create,
      updateWebhook: update,
      deleteWebhook: remove,
      listWebhookDeliveries: deliveries,
      /** @deprecated Use `listWebhooks`. */
      list,
      /** @deprecated Use `getWebhook`. */
      get,
      /** @deprecated Use `createWebhook`. */
      create,
      /** @deprecated Use `updateWebhook`. */
      update,
      /** @deprecated Use `deleteWebhook`. */
      remove,
      /** @deprecated Use `listWebhookDeliveries`. */
      deliveries
    } as const
  })
}) {}
