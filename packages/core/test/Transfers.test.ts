import { assert, describe, it } from "@effect/vitest"
import {
  type InTransitRow,
  type PreAdviceToReceive,
  ReceivingRepository,
  type StatusId,
  transferLines,
  TransferRepository,
  Transfers
} from "@wms/core"
import { CallLog, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option } from "effect"
import { clientActor, failure, siteActor } from "./Fixtures.js"

/** TR-south-T1 (ref 8) at `main`, from `south`, in `status`, with a line of 5, 2 received. */
const transfer = (status: number, fields: Partial<PreAdviceToReceive> = {}): PreAdviceToReceive => ({
  ref: 8,
  pre_advice_id: "TR-south-T1",
  client_id: null,
  status_id: status as StatusId,
  transfer: { order_id: "T1", from_site: "south" },
  lines: [{
    line: 1,
    sku_id: "A",
    qty: 5,
    qty_received: 2,
    client_id: null,
    tag_id: "L-1",
    expiry_date: null,
    qty_lost: 0
  }],
  ...fields
})

const withTransfers = <A, E>(
  log: CallLog,
  stubs: {
    readonly receiving?: Partial<Context.Tag.Service<ReceivingRepository>>
    readonly transfers?: Partial<Context.Tag.Service<TransferRepository>>
  },
  f: (transfers: Transfers) => Effect.Effect<A, E>
) =>
  Effect.flatMap(Transfers, f).pipe(Effect.provide(Transfers.Default.pipe(Layer.provide([
    makeTestLayer(ReceivingRepository)(stubs.receiving ?? {}, log),
    makeTestLayer(TransferRepository)(stubs.transfers ?? {}, log),
    testTransactor(log)
  ]))))

describe("Transfers", () => {
  it("a transfer's pre-advice has a line per content shipped, in the order of the claims, with its expiry", () => {
    const claims = [
      { content_id: 4, sku_id: "A", tag_id: "L-4", qty: 2 },
      { content_id: 3, sku_id: "B", tag_id: "L-3", qty: 1 },
      { content_id: 4, sku_id: "A", tag_id: "L-4", qty: 5 }
    ]
    assert.deepStrictEqual(transferLines(claims, new Map([[4, "2031-01-31"]])), [
      { line: 1, sku_id: "A", qty: 7, tag_id: "L-4", expiry_date: "2031-01-31" },
      { line: 2, sku_id: "B", qty: 1, tag_id: "L-3", expiry_date: null }
    ])
  })

  it.effect("closeTransfer writes off what is left of an In Transit or In Receipt transfer, under its lock", () =>
    Effect.gen(function*() {
      for (const status of [26, 2]) {
        const log = new CallLog()
        yield* withTransfers(log, {
          receiving: { lockPreAdvice: () => Effect.succeed(Option.some(transfer(status))) },
          transfers: { close: () => Effect.void }
        }, (transfers) => transfers.closeTransfer(siteActor, "TR-south-T1", { reason_code: "Damaged" }))
        assert.deepStrictEqual(log.methods, [
          "Transactor.begin",
          "ReceivingRepository.lockPreAdvice",
          "TransferRepository.close",
          "Transactor.commit"
        ])
        assert.deepStrictEqual(log.argsOf("TransferRepository.close"), [[8, 20, "Damaged"]])
      }
    }))

  it.effect("closeTransfer refuses a missing pre-advice, one no transfer made, and one that is not open: nothing written", () =>
    Effect.gen(function*() {
      const close = (found: Option.Option<PreAdviceToReceive>) => {
        const log = new CallLog()
        return Effect.tap(
          failure(withTransfers(
            log,
            { receiving: { lockPreAdvice: () => Effect.succeed(found) } },
            (transfers) => transfers.closeTransfer(siteActor, "TR-south-T1", { reason_code: "Other" })
          )),
          () => Effect.sync(() => assert.notInclude(log.methods, "TransferRepository.close"))
        )
      }
      assert.deepStrictEqual(yield* close(Option.none()), [
        "PreAdviceNotFound",
        "PreAdvice with PreAdviceID TR-south-T1 not found"
      ])
      assert.deepStrictEqual(yield* close(Option.some(transfer(1, { transfer: null }))), [
        "PreAdviceNotTransfer",
        "PreAdvice with PreAdviceID TR-south-T1 was not made by a transfer: only a transfer's pre-advice can be closed"
      ])
      for (const [status, description] of [[3, "Received"], [20, "Complete"]] as const) {
        assert.deepStrictEqual(yield* close(Option.some(transfer(status))), [
          "PreAdviceNotOpen",
          `PreAdvice with PreAdviceID TR-south-T1 is ${description}: only an In Transit or In Receipt transfer can be closed`
        ])
      }
    }))

  it.effect("listInTransit shows what is left of each line at the caller's site, and nothing to a client's scope", () =>
    Effect.gen(function*() {
      const row: InTransitRow = {
        pre_advice_id: "TR-main-T1",
        order_id: "T1",
        from_site: "main",
        to_site: "north",
        status_id: 2,
        created_at: "2030-01-02T03:04:05.000Z",
        line: 1,
        sku_id: "A",
        tag_id: "L-1",
        expiry_date: "2031-01-31",
        qty: 5,
        qty_received: 2
      }
      const log = new CallLog()
      const stubs = { transfers: { inTransit: () => Effect.succeed([row]) } }
      const listed = yield* withTransfers(log, stubs, (t) => t.listInTransit(siteActor, { limit: 10 }))
      assert.deepStrictEqual(listed, [{
        pre_advice_id: "TR-main-T1",
        order_id: "T1",
        from_site: "main",
        to_site: "north",
        pre_advice_status: { id: 2, description: "In Receipt" },
        line: 1,
        sku_id: "A",
        tag_id: "L-1",
        expiry_date: "2031-01-31",
        qty_shipped: 5,
        qty_received: 2,
        qty_in_transit: 3,
        shipped_datetime: "2030-01-02 03:04:05"
      }])
      assert.deepStrictEqual(log.argsOf("TransferRepository.inTransit"), [["main", { limit: 10 }]])
      const client = new CallLog()
      assert.deepStrictEqual(yield* withTransfers(client, stubs, (t) => t.listInTransit(clientActor, {})), [])
      assert.deepStrictEqual(client.methods, [])
    }))
})
