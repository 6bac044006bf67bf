import { assert, describe, it } from "@effect/vitest"
import {
  ClientId,
  type NewPreAdvice,
  PreAdviceRepository,
  PreAdvices,
  SiteId,
  SiteRepository,
  type StatusId,
  type StoredPreAdvice,
  UserId
} from "@wms/core"
import { CallLog, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option } from "effect"
import { clientActor, failure, siteActor } from "./Fixtures.js"

type Repository = Context.Tag.Service<PreAdviceRepository>

const header = (fields: Partial<StoredPreAdvice> = {}): StoredPreAdvice => ({
  ref: 3,
  site_id: SiteId.make("main"),
  pre_advice_id: "PA-1",
  client_id: null,
  status_id: 1,
  supplier: null,
  created_at: "2030-01-02T03:04:05.000Z",
  created_by: UserId.make("user-1"),
  transfer: null,
  ...fields
})

/** A site with SKUs A and B, supplier 4, clients c1 and c2, and pre-advice PA-1 (ref 3) in `status` with line 1. */
const site = (status: StatusId = 1, more: Partial<Repository> = {}): Partial<Repository> => ({
  find: (_, id) => Effect.succeed(id === "PA-1" ? Option.some(header({ status_id: status })) : Option.none()),
  lock: () => Effect.succeed(true),
  supplierName: (_, id) => Effect.succeed(id === 4 ? Option.some("Supplier 4") : Option.none()),
  visibleSkus: (_, ids) => Effect.succeed(new Set(ids.filter((id) => id === "A" || id === "B"))),
  findLine: (_, line) =>
    Effect.succeed(
      line === 1
        ? Option.some({
          line: 1,
          sku_id: "A",
          qty: 1,
          qty_received: 0,
          pallet_id: null,
          client_id: null,
          tag_id: null,
          expiry_date: null,
          qty_lost: null
        })
        : Option.none()
    ),
  insert: () => Effect.succeed(Option.some(3)),
  maxLine: () => Effect.succeed(1),
  insertLines: (_, lines) => Effect.succeed(lines.map((line) => line.line)),
  ...more
})

const withPreAdvices = <A, E>(
  log: CallLog,
  repository: Partial<Repository>,
  f: (preAdvices: PreAdvices) => Effect.Effect<A, E>
) =>
  Effect.flatMap(PreAdvices, f).pipe(Effect.provide(PreAdvices.Default.pipe(Layer.provide([
    makeTestLayer(PreAdviceRepository)(repository, log),
    makeTestLayer(SiteRepository)({
      clientOfSite: (_, client) => Effect.succeed(client === "c1" || client === "c2")
    }, log),
    testTransactor(log)
  ]))))

const newPreAdvice = (fields: Partial<NewPreAdvice> = {}): NewPreAdvice => ({
  pre_advice_id: "PA-2",
  supplier: null,
  client_id: null,
  lines: [],
  ...fields
})

const writes = (log: CallLog) =>
  log.methods.filter((method) =>
    ["insert", "update", "remove", "insertLines", "updateLine", "removeLine"].some((write) =>
      method === `PreAdviceRepository.${write}`
    )
  )

describe("PreAdvices", () => {
  it.effect("create checks owner, supplier and lines, then inserts an Open pre-advice and numbers its lines", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* withPreAdvices(log, site(1, { maxLine: () => Effect.succeed(0) }), (preAdvices) =>
        preAdvices.create(
          siteActor,
          newPreAdvice({
            supplier: 4,
            client_id: ClientId.make("c1"),
            lines: [
              { sku_id: "A", qty: 1 },
              { sku_id: "B", qty: 2, line: 5, pallet_id: "P-1" },
              { sku_id: "A", qty: 3, client_id: ClientId.make("c2") }
            ]
          })
        ))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "SiteRepository.clientOfSite",
        "PreAdviceRepository.supplierName",
        "PreAdviceRepository.visibleSkus",
        "SiteRepository.clientOfSite",
        "PreAdviceRepository.insert",
        "PreAdviceRepository.maxLine",
        "PreAdviceRepository.insertLines",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("PreAdviceRepository.visibleSkus"), [[siteActor.scope, ["A", "B"]]])
      assert.deepStrictEqual(log.argsOf("PreAdviceRepository.insert"), [[{
        site_id: "main",
        pre_advice_id: "PA-2",
        client_id: "c1",
        status_id: 1,
        supplier_id: 4,
        created_at: "1970-01-01T00:00:00.000Z",
        created_by: "user-1"
      }]])
      // Lines without a number come after the highest given; a line without a client follows the header's.
      assert.deepStrictEqual(log.argsOf("PreAdviceRepository.insertLines"), [[3, [
        {
          line: 6,
          sku_id: "A",
          qty: 1,
          pallet_id: null,
          client_id: null
        },
        {
          line: 5,
          sku_id: "B",
          qty: 2,
          pallet_id: "P-1",
          client_id: null
        },
        {
          line: 7,
          sku_id: "A",
          qty: 3,
          pallet_id: null,
          client_id: "c2"
        }
      ]]])
    })
  })

  it.effect("create of a pre_advice_id in use on the site is a 409 and writes no line", () => {
    const log = new CallLog()
    const taken = site(1, { insert: () => Effect.succeed(Option.none()) })
    return Effect.gen(function*() {
      assert.deepStrictEqual(
        yield* failure(
          withPreAdvices(log, taken, (p) => p.create(siteActor, newPreAdvice({ lines: [{ sku_id: "A", qty: 1 }] })))
        ),
        ["PreAdviceExists", "PreAdvice with PreAdviceID PA-2 already exists"]
      )
      assert.deepStrictEqual(writes(log), ["PreAdviceRepository.insert"])
      assert.strictEqual(log.methods.at(-1), "Transactor.rollback")
    })
  })

  it.effect("create names the first bad field, client, supplier, then a line's SKU or client, and writes nothing", () =>
    Effect.gen(function*() {
      const attempt = (actor: typeof siteActor, input: Partial<NewPreAdvice>) => {
        const log = new CallLog()
        return Effect.map(
          failure(withPreAdvices(log, site(), (p) => p.create(actor, newPreAdvice(input)))),
          (error) => [...error, writes(log)]
        )
      }
      const [c1, c2, nobody] = [ClientId.make("c1"), ClientId.make("c2"), ClientId.make("nobody")]
      assert.deepStrictEqual(yield* attempt(clientActor, { client_id: c2, supplier: 9 }), [
        "InvalidInput",
        "Invalid field client_id: must be c1, the client of the site header",
        []
      ])
      assert.deepStrictEqual(yield* attempt(siteActor, { client_id: nobody, supplier: 9 }), [
        "InvalidInput",
        "Invalid field client_id: client nobody does not exist on site main",
        []
      ])
      const badLine = [{ sku_id: "X", qty: 1 }]
      assert.deepStrictEqual(yield* attempt(siteActor, { client_id: c1, supplier: 9, lines: badLine }), [
        "InvalidInput",
        "Invalid field supplier: supplier 9 does not exist",
        []
      ])
      assert.deepStrictEqual(yield* attempt(siteActor, { lines: [{ sku_id: "A", qty: 1 }, { sku_id: "X", qty: 1 }] }), [
        "InvalidInput",
        "Invalid field lines.1.sku_id: sku X does not exist",
        []
      ])
      assert.deepStrictEqual(yield* attempt(siteActor, { lines: [{ sku_id: "A", qty: 1, client_id: nobody }] }), [
        "InvalidInput",
        "Invalid field lines.0.client_id: client nobody does not exist on site main",
        []
      ])
    }))

  it.effect("a supplier id no store can hold is unknown without being looked up", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      assert.deepStrictEqual(
        yield* failure(withPreAdvices(log, site(), (p) => p.create(siteActor, newPreAdvice({ supplier: 2147483648 })))),
        ["InvalidInput", "Invalid field supplier: supplier 2147483648 does not exist"]
      )
      assert.isFalse(log.methods.includes("PreAdviceRepository.supplierName"))
    })
  })

  it.effect("a pre-advice no longer Open refuses every change with a 409 naming its status, writing nothing", () =>
    Effect.gen(function*() {
      const prefix = "PreAdvice with PreAdviceID PA-1 is In Receipt"
      const lines = `${prefix}: its lines can be changed only while it is Open`
      type Change = (p: PreAdvices) => Effect.Effect<void, { readonly _tag: string; readonly message: string }>
      const cases: ReadonlyArray<readonly [Change, string]> = [
        [(p) => p.remove(siteActor, "PA-1"), `${prefix}: only an Open pre-advice can be deleted`],
        [(p) => p.update(siteActor, "PA-1", { supplier: 4 }), `${prefix}: only an Open pre-advice can be changed`],
        [(p) => p.addLines(siteActor, "PA-1", { sku_id: "A", qty: 1 }), lines],
        [(p) => p.updateLine(siteActor, "PA-1", 1, { qty: 2 }), lines],
        [(p) => p.removeLine(siteActor, "PA-1", 1), lines]
      ]
      for (const [change, message] of cases) {
        const log = new CallLog()
        assert.deepStrictEqual(yield* failure(withPreAdvices(log, site(2), change)), ["PreAdviceNotOpen", message])
        assert.deepStrictEqual(writes(log), [])
        assert.strictEqual(log.methods.at(-1), "Transactor.rollback")
      }
    }))

  it.effect("a missing line is a 404 before the pre-advice's status is looked at", () =>
    Effect.gen(function*() {
      const notFound = ["PreAdviceLineNotFound", "Line 7 of pre-advice PA-1 not found"]
      assert.deepStrictEqual(
        yield* failure(withPreAdvices(new CallLog(), site(2), (p) => p.removeLine(siteActor, "PA-1", 7))),
        notFound
      )
      assert.deepStrictEqual(
        yield* failure(withPreAdvices(new CallLog(), site(2), (p) => p.updateLine(siteActor, "PA-1", 7, { qty: 2 }))),
        notFound
      )
    }))

  it.effect("a pre-advice is read again once locked: gone, replaced or out of scope meanwhile, it is a 404", () =>
    Effect.gen(function*() {
      const notFound = ["PreAdviceNotFound", "PreAdvice with PreAdviceID PA-1 not found"]
      const readTwice = (second: Option.Option<StoredPreAdvice>, locked = true) => {
        let reads = 0
        return site(1, {
          find: () => Effect.sync(() => (reads++ === 0 ? Option.some(header()) : second)),
          lock: () => Effect.succeed(locked)
        })
      }
      const remove = (repository: Partial<Repository>) =>
        failure(withPreAdvices(new CallLog(), repository, (p) => p.remove(siteActor, "PA-1")))
      assert.deepStrictEqual(yield* remove(readTwice(Option.some(header()), false)), notFound)
      assert.deepStrictEqual(yield* remove(readTwice(Option.none())), notFound)
      assert.deepStrictEqual(yield* remove(readTwice(Option.some(header({ ref: 4 })))), notFound)
      assert.deepStrictEqual(
        yield* remove(readTwice(Option.some(header({ site_id: SiteId.make("F"), client_id: ClientId.make("c2") })))),
        notFound
      )
    }))

  it.effect("a line number given twice or taken meanwhile is a 409; none left to generate is a 409", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      assert.deepStrictEqual(
        yield* failure(
          withPreAdvices(
            log,
            site(),
            (p) => p.addLines(siteActor, "PA-1", [{ sku_id: "A", qty: 1, line: 4 }, { sku_id: "B", qty: 1, line: 4 }])
          )
        ),
        ["PreAdviceLineExists", "Line 4 of pre-advice PA-1 already exists"]
      )
      assert.deepStrictEqual(writes(log), [])

      const raced = site(1, { insertLines: () => Effect.succeed([2]) })
      assert.deepStrictEqual(
        yield* failure(
          withPreAdvices(
            new CallLog(),
            raced,
            (p) => p.addLines(siteActor, "PA-1", [{ sku_id: "A", qty: 1 }, { sku_id: "B", qty: 1 }])
          )
        ),
        ["PreAdviceLineExists", "Line 3 of pre-advice PA-1 already exists"]
      )

      const full = site(1, { maxLine: () => Effect.succeed(2147483647) })
      assert.deepStrictEqual(
        yield* failure(
          withPreAdvices(new CallLog(), full, (p) => p.addLines(siteActor, "PA-1", { sku_id: "A", qty: 1 }))
        ),
        ["PreAdviceLineNumbersExhausted", "PreAdvice with PreAdviceID PA-1 has no line number left"]
      )
    }))

  it.effect("update and updateLine change only the fields present; null clears the client", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const repository = site(1, { update: () => Effect.void, updateLine: () => Effect.void })
      yield* withPreAdvices(log, repository, (p) => p.update(siteActor, "PA-1", { supplier: null }))
      yield* withPreAdvices(log, repository, (p) => p.update(siteActor, "PA-1", { client_id: ClientId.make("c2") }))
      yield* withPreAdvices(log, repository, (p) => p.updateLine(siteActor, "PA-1", 1, { qty: 4, client_id: null }))
      assert.deepStrictEqual(log.argsOf("PreAdviceRepository.update"), [
        [3, { supplier_id: null, client_id: undefined }],
        [3, { supplier_id: undefined, client_id: "c2" }]
      ])
      assert.deepStrictEqual(log.argsOf("PreAdviceRepository.updateLine"), [
        [3, 1, {
          sku_id: undefined,
          qty: 4,
          pallet_id: undefined,
          client_id: null
        }]
      ])
    }))

  it.effect("get shows each line's own client, or the header's when it has none", () =>
    Effect.gen(function*() {
      const repository = site(1, {
        find: () => Effect.succeed(Option.some(header({ client_id: ClientId.make("c1"), status_id: 2 }))),
        lines: () =>
          Effect.succeed([
            {
              line: 1,
              sku_id: "A",
              qty: 2,
              qty_received: 1,
              pallet_id: null,
              client_id: null,
              tag_id: null,
              expiry_date: null,
              qty_lost: null
            },
            {
              line: 2,
              sku_id: "B",
              qty: 1,
              qty_received: 0,
              pallet_id: "P-1",
              client_id: ClientId.make("c2"),
              tag_id: null,
              expiry_date: null,
              qty_lost: null
            }
          ])
      })
      const shown = yield* withPreAdvices(new CallLog(), repository, (p) => p.get(siteActor, "PA-1"))
      assert.deepStrictEqual(shown, {
        pre_advice_id: "PA-1",
        client_id: ClientId.make("c1"),
        pre_advice_status: { id: 2, description: "In Receipt" },
        supplier: null,
        creation_datetime: "02-01-2030 03:04:05",
        created_by: UserId.make("user-1"),
        lines: [
          { pre_advice_id: "PA-1", line: 1, sku_id: "A", qty: 2, qty_received: 1, pallet_id: null, client_id: "c1" },
          { pre_advice_id: "PA-1", line: 2, sku_id: "B", qty: 1, qty_received: 0, pallet_id: "P-1", client_id: "c2" }
        ]
      })
    }))
})
