import { assert, describe, it } from "@effect/vitest"
import { EventPublisher, OrderRepository, SiteRepository, Transactor } from "@wms/core"
import {
  arbOps,
  arbWarehouse,
  CallLog,
  checkBlockedAllocation,
  checkCapacity,
  checkClaims,
  checkConservation,
  checkCountLedger,
  checkDemand,
  checkFefo,
  checkFreeze,
  checkInvariants,
  checkLedger,
  checkNeverOverMax,
  checkOccupancy,
  checkOneOpenReplenishment,
  checkReplenishmentFefo,
  checkShortPick,
  checkStock,
  checkTasks,
  checkThreshold,
  checkTrace,
  checkTransferConservation,
  checkUntaskedAllocation,
  type ContentView,
  type CountView,
  cycleWeights,
  type LedgerRowView,
  type LineClaimView,
  type LocationView,
  type LotLedgerRow,
  makeTestEventPublisher,
  makeTestLayer,
  type MovementTaskView,
  opKinds,
  type PlacedContentView,
  shortPickWeights,
  testTransactor,
  unmanagedLocations
} from "@wms/core/testing"
import { Cause, Effect, Exit, Option } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../testing/properties.js"
import { siteActor } from "./Fixtures.js"

const siteScope = siteActor.scope

// Every kind weighed 0: a test names the ones it wants.
const noneBut = Object.fromEntries(opKinds.map((kind) => [kind, 0]))

const content = (fields: Partial<ContentView> & { readonly content_id: number }): ContentView => ({
  sku_id: "A",
  client_id: null,
  qty: 10,
  qty_allocated: 0,
  qty_tasked_from: 0,
  expiry_date: null,
  created_datetime: "2030-01-01 00:00:00",
  ...fields
})

const placed = (
  fields: Partial<PlacedContentView> & { readonly content_id: number; readonly loc_id: string }
): PlacedContentView => ({ ...content(fields), tag_id: `T${fields.content_id}`, ...fields })

const row = (
  fields: Partial<LedgerRowView> & Pick<LedgerRowView, "content_id" | "transaction_type" | "qty">
): LedgerRowView => ({ from_content_id: null, sku_id: "A", client_id: null, to_loc_id: "A-01", ...fields })

const task = (
  fields: Partial<MovementTaskView> & Pick<MovementTaskView, "id" | "content_id" | "quantity">
): MovementTaskView => ({ status_id: 1, sku_id: "A", tag_id: `T${fields.content_id}`, to_loc_id: "S-01", ...fields })

const location = (fields: Partial<LocationView> & { readonly loc_id: string }): LocationView => ({
  status: "Active",
  max_tags: null,
  max_weight: null,
  max_volume: null,
  qty_on_hand: 0,
  tags: 0,
  weight: 0,
  volume: 0,
  inbound_qty: 0,
  inbound_tags: 0,
  over_capacity: false,
  ...fields
})

describe("the invariant checkers of @wms/core/testing", () => {
  it("flag stock of a lot that on hand, in transit and written off do not account for across two sites", () => {
    const lot = (qty: number, tag_id = "L1") => ({ sku_id: "A", tag_id, expiry_date: "2031-01-31", qty })
    const line = (qty: number, qty_received: number, qty_lost = 0) => ({ ...lot(qty), qty_received, qty_lost })
    // 10 before: 4 left, 3 received at the other site, 2 in transit, 1 written off.
    assert.deepStrictEqual(checkTransferConservation([lot(10)], [lot(4), lot(3)], [line(6, 3, 1)]), [])
    assert.deepStrictEqual(checkTransferConservation([lot(10)], [lot(4), lot(3)], [line(5, 3, 1)]), [
      "A lot L1 expiring 2031-01-31: 10 on hand before, 9 on hand, in transit and written off after"
    ])
    // Another lot is another account, and a line received beyond what it shipped is flagged.
    assert.strictEqual(checkTransferConservation([lot(10)], [lot(4), lot(6, "L2")], []).length, 2)
    assert.include(
      checkTransferConservation([lot(3)], [lot(4)], [line(1, 2)])[0],
      "1 shipped, 2 received and 0 written off"
    )
  })

  it("flag a lot's trace whose rows are not the lot's or that does not account for its stock", () => {
    const ledgerRow = (transaction_type: string, content_id: number, qty: number, order_id: string | null = null) =>
      ({
        transaction_type,
        content_id,
        qty,
        order_id,
        line_id: order_id === null ? null : 1
      }) satisfies LotLedgerRow
    // 5 received, 2 returned, 4 transferred in, 1 adjusted in; 3 shipped, 2 transferred out, 1 picked
    // and not shipped, 1 lost, 1 counted out: 4 on hand.
    const ledger = [
      ledgerRow("Receipt", 1, 5),
      ledgerRow("Return", 2, 2, "SO-1"),
      ledgerRow("TransferIn", 3, 4, "T-IN"),
      ledgerRow("Adjustment", 3, 1),
      ledgerRow("Pick", 1, 5, "SO-1"),
      ledgerRow("Shipment", 1, 3, "SO-1"),
      ledgerRow("TransferOut", 1, 2, "T-OUT"),
      ledgerRow("Pick", 3, 1, "SO-2"),
      ledgerRow("Lost", 3, 1, "SO-2"),
      ledgerRow("Count", 2, -1),
      ledgerRow("Move", 4, 2)
    ]
    const received = (transaction_type: "Receipt" | "Return" | "TransferIn", content_id: number, qty: number) => ({
      date: "2030-01-01",
      transaction_type,
      pre_advice_id: null,
      return_id: null,
      order_id: null,
      qty,
      content_id
    })
    const shipped = (transaction_type: "Shipment" | "TransferOut", order_id: string, qty: number) => ({
      date: "2030-01-01",
      transaction_type,
      order_id,
      customer_id: null,
      to_site: null,
      line: 1,
      qty
    })
    const onHand = (content_id: number, qty: number) => ({
      content_id,
      loc_id: "A-01",
      qty,
      qty_allocated: 0,
      held: false
    })
    const trace = {
      received: [received("Receipt", 1, 5), received("Return", 2, 2), received("TransferIn", 3, 4)],
      on_hand: [onHand(2, 1), onHand(3, 1), onHand(4, 2)],
      shipped: [shipped("Shipment", "SO-1", 3), shipped("TransferOut", "T-OUT", 2)]
    }
    assert.deepStrictEqual(checkTrace(trace, ledger), [])
    // A transfer out missing (its units then picked and not shipped), or shown as a shipment.
    assert.lengthOf(checkTrace({ ...trace, shipped: trace.shipped.slice(0, 1) }, ledger), 1)
    assert.lengthOf(
      checkTrace({ ...trace, shipped: [trace.shipped[0], shipped("Shipment", "T-OUT", 2)] }, ledger),
      1
    )
    // A return missing, or shown on another content.
    assert.lengthOf(checkTrace({ ...trace, received: trace.received.slice(0, 2) }, ledger), 2)
    assert.lengthOf(
      checkTrace({ ...trace, received: [...trace.received.slice(0, 2), received("TransferIn", 4, 4)] }, ledger),
      1
    )
    // A unit on hand that nothing brought in.
    assert.deepStrictEqual(checkTrace({ ...trace, on_hand: [...trace.on_hand, onHand(5, 1)] }, ledger), [
      "received 11 + adjusted in 1 ≠ on hand 5 + shipped 5 + picked not shipped 1 + lost 1 + adjusted out 1"
    ])
  })

  it("flag negative and over-allocated stock", () => {
    assert.deepStrictEqual(checkStock([content({ content_id: 1 }), content({ content_id: 2, qty_allocated: 10 })]), [])
    assert.strictEqual(checkStock([content({ content_id: 1, qty: -1 })]).length, 1)
    assert.strictEqual(checkStock([content({ content_id: 1, qty_allocated: 6, qty_tasked_from: 5 })]).length, 1)
  })

  it("flag a ledger that does not replay to the stock", () => {
    const ledger = [
      { content_id: 1, transaction_type: "Receipt" as const, qty: 12 },
      { content_id: 1, transaction_type: "Allocate" as const, qty: 5 },
      { content_id: 1, transaction_type: "Pick" as const, qty: 2 }
    ]
    assert.deepStrictEqual(checkLedger([content({ content_id: 1 })], ledger), [])
    assert.deepStrictEqual(checkLedger([content({ content_id: 1, qty: 9 })], ledger), [
      "content 1: qty 9, ledger replays to 10"
    ])
  })

  it("flag allocation that no open claim accounts for", () => {
    const claims = [{ content_id: 1, qty: 3, status: "allocated" }, { content_id: 1, qty: 4, status: "picked" }]
    assert.deepStrictEqual(checkClaims([content({ content_id: 1, qty_allocated: 3 })], claims), [])
    assert.strictEqual(checkClaims([content({ content_id: 1, qty_allocated: 7 })], claims).length, 1)
  })

  it("flag a claim on stock while earlier-expiring stock was left", () => {
    const early = content({ content_id: 1, expiry_date: "2030-02-01" })
    const late = content({ content_id: 2, expiry_date: "2030-03-01" })
    const claims = [{ content_id: 2, qty: 1, status: "allocated" }]
    assert.strictEqual(checkFefo([early, late], claims, "2030-01-15").length, 1)
    assert.deepStrictEqual(checkFefo([{ ...early, qty_allocated: 10 }, late], claims, "2030-01-15"), [])
    // Expired stock is not eligible, and no expiry comes last.
    assert.deepStrictEqual(checkFefo([early, late], claims, "2030-02-02"), [])
    const never = content({ content_id: 3 })
    const onNever = [{ content_id: 3, qty: 1, status: "allocated" }]
    assert.strictEqual(checkFefo([late, never], onNever, "2030-01-01").length, 1)
  })

  it("replay allocation and task reservations too once the ledger names movement sources", () => {
    // 12 received, 3 allocated, 5 tasked of which 4 moved to content 2 and 1 released.
    const ledger = [
      row({ content_id: 1, transaction_type: "Receipt", qty: 12 }),
      row({ content_id: 1, transaction_type: "Allocate", qty: 3 }),
      row({ content_id: 1, transaction_type: "Task", qty: 5 }),
      row({ content_id: 2, from_content_id: 1, transaction_type: "Move", qty: 4 }),
      row({ content_id: 1, transaction_type: "Untask", qty: 1 })
    ]
    const source = content({ content_id: 1, qty: 8, qty_allocated: 3 })
    const destination = content({ content_id: 2, qty: 4 })
    assert.deepStrictEqual(checkLedger([source, destination], ledger), [])
    assert.deepStrictEqual(checkLedger([{ ...source, qty_tasked_from: 1 }, destination], ledger), [
      "content 1: qty 8, allocated 3, tasked 1, ledger replays to qty 8, allocated 3, tasked 0"
    ])
    assert.deepStrictEqual(checkLedger([source, { ...destination, qty_allocated: 1 }], ledger), [
      "content 2: qty 4, allocated 1, tasked 0, ledger replays to qty 4, allocated 0, tasked 0"
    ])
    // The overview leaves out empty contents: one the ledger still fills is a violation.
    assert.deepStrictEqual(checkLedger([source], ledger), [
      "content 2: not listed (no stock), ledger replays to qty 4, allocated 0, tasked 0"
    ])
    assert.deepStrictEqual(
      checkLedger([source, destination], [...ledger, row({ content_id: 2, transaction_type: "Adjustment", qty: -4 })]),
      ["content 2: qty 4, allocated 0, tasked 0, ledger replays to qty 0, allocated 0, tasked 0"]
    )
  })

  it("flag a reservation that open movement tasks do not account for, and open tasks on empty stock", () => {
    const tasks = [
      task({ id: 1, content_id: 1, quantity: 2 }),
      task({ id: 2, content_id: 1, quantity: 3 }),
      task({ id: 3, content_id: 1, quantity: 4, status_id: 20 }),
      task({ id: 4, content_id: 1, quantity: 5, status_id: 21 })
    ]
    assert.deepStrictEqual(checkTasks([content({ content_id: 1, qty_tasked_from: 5 })], tasks), [])
    assert.deepStrictEqual(checkTasks([content({ content_id: 1, qty_tasked_from: 4 })], tasks), [
      "content 1: qty_tasked_from 4, open movement tasks 5"
    ])
    assert.deepStrictEqual(checkTasks([], tasks), [
      "movement task 1 is Open on content 1, which holds no stock",
      "movement task 2 is Open on content 1, which holds no stock"
    ])
  })

  it("flag stock that receipts, adjustments, counts, picks and losses do not account for per SKU and client", () => {
    const ledger = [
      row({ content_id: 1, transaction_type: "Receipt", qty: 10 }),
      row({ content_id: 1, transaction_type: "Adjustment", qty: -1 }),
      row({ content_id: 1, transaction_type: "Allocate", qty: 4 }),
      row({ content_id: 1, transaction_type: "Pick", qty: 3 }),
      row({ content_id: 1, transaction_type: "Lost", qty: 1 }),
      row({ content_id: 1, transaction_type: "Task", qty: 2 }),
      row({ content_id: 2, from_content_id: 1, transaction_type: "Move", qty: 2 }),
      row({ content_id: 3, sku_id: "B", client_id: "c1", transaction_type: "Receipt", qty: 7 })
    ]
    const stock = [
      content({ content_id: 1, qty: 3 }),
      content({ content_id: 2, qty: 2 }),
      content({ content_id: 3, sku_id: "B", client_id: "c1", qty: 7 })
    ]
    assert.deepStrictEqual(checkConservation(stock, ledger), [])
    assert.deepStrictEqual(checkConservation([stock[0], { ...stock[1], qty: 3 }, stock[2]], ledger), [
      "SKU A of the site: 6 on hand, the ledger brought in 5 net"
    ])
    // A count's variance is a fact like an adjustment.
    const counted = [...ledger, row({ content_id: 2, transaction_type: "Count", qty: -2 })]
    assert.deepStrictEqual(checkConservation([stock[0], { ...stock[1], qty: 0 }, stock[2]], counted), [])
    // A movement between SKUs or clients, or without a source, or changing the expiry.
    const across = row({ content_id: 2, from_content_id: 3, transaction_type: "Putaway", qty: 1 })
    assert.deepStrictEqual(checkConservation(stock, [...ledger.slice(0, -2), across, ledger[7]]), [
      "Putaway of 1 into content 2 takes it from content 3, B of c1"
    ])
    assert.deepStrictEqual(checkConservation(stock, [...ledger, { ...ledger[6], from_content_id: null, qty: 0 }]), [
      "Move of 0 into content 2 names no source"
    ])
    assert.deepStrictEqual(
      checkConservation([stock[0], { ...stock[1], expiry_date: "2030-05-01" }, stock[2]], ledger),
      [
        "Move of 2 into content 2 changes its expiry from null to 2030-05-01"
      ]
    )
  })

  it("flag tags, weight or volume over a location's limits counting inbound tasks, unless a fact filled it", () => {
    const skus = [{ sku_id: "A", each_weight: 2, each_volume: null }]
    const stock = [
      placed({ content_id: 1, loc_id: "S-01", qty: 3 }),
      placed({ content_id: 2, loc_id: "S-01", qty: 2, tag_id: "T1" }),
      placed({ content_id: 3, loc_id: "A-01", qty: 4 })
    ]
    const moved = [row({ content_id: 1, from_content_id: 3, transaction_type: "Move", qty: 3, to_loc_id: "S-01" })]
    const inbound = [task({ id: 1, content_id: 3, quantity: 2, to_loc_id: "S-01" })]
    // On hand: one tag (T1), 10 kg; inbound: T3, 4 kg.
    assert.deepStrictEqual(
      checkCapacity([location({ loc_id: "S-01", max_tags: 2, max_weight: 14 })], stock, inbound, skus, moved),
      []
    )
    assert.deepStrictEqual(
      checkCapacity([location({ loc_id: "S-01", max_tags: 1, max_weight: 13 })], stock, inbound, skus, moved),
      [
        "location S-01: 1 + 1 inbound tags over 1",
        "location S-01: 10 + 4 inbound kg over 13"
      ]
    )
    // Closed tasks are not inbound, and a location without limits is never over.
    const closed = inbound.map((t) => ({ ...t, status_id: 20 as const }))
    assert.deepStrictEqual(
      checkCapacity([location({ loc_id: "S-01", max_tags: 1, max_weight: 10 })], stock, closed, skus, moved),
      []
    )
    assert.deepStrictEqual(checkCapacity([location({ loc_id: "S-01" })], stock, inbound, skus, moved), [])
    const volumes = [{ sku_id: "A", each_weight: null, each_volume: 100 }]
    assert.deepStrictEqual(
      checkCapacity([location({ loc_id: "S-01", max_volume: 700 })], stock, inbound, volumes, moved),
      []
    )
    assert.deepStrictEqual(
      checkCapacity([location({ loc_id: "S-01", max_volume: 600 })], stock, inbound, volumes, moved),
      [
        "location S-01: 500 + 200 inbound cm³ over 600"
      ]
    )
    // A receipt, an upward adjustment or count there is a fact, never refused for room: the location is left out.
    for (
      const fact of [
        row({ content_id: 2, transaction_type: "Adjustment", qty: 2, to_loc_id: "S-01" }),
        row({ content_id: 2, transaction_type: "Receipt", qty: 2, to_loc_id: "S-01" })
      ]
    ) {
      assert.deepStrictEqual(
        checkCapacity([location({ loc_id: "S-01", max_tags: 1 })], stock, inbound, skus, [...moved, fact]),
        []
      )
    }
    const down = row({ content_id: 2, transaction_type: "Adjustment", qty: -1, to_loc_id: "S-01" })
    assert.strictEqual(
      checkCapacity([location({ loc_id: "S-01", max_tags: 1 })], stock, inbound, skus, [...moved, down]).length,
      1
    )
  })

  it("flag a location whose figures are not what is at it and on its way", () => {
    const skus = [{ sku_id: "A", each_weight: 0.5, each_volume: null }]
    const stock = [placed({ content_id: 1, loc_id: "S-01", qty: 3 }), placed({ content_id: 2, loc_id: "S-01", qty: 0 })]
    const inbound = [
      task({ id: 1, content_id: 5, quantity: 2, to_loc_id: "S-01", tag_id: "T1" }),
      task({ id: 2, content_id: 6, quantity: 4, to_loc_id: "S-01", tag_id: "T6" })
    ]
    const right = location({
      loc_id: "S-01",
      max_tags: 2,
      qty_on_hand: 3,
      tags: 1,
      weight: 1.5,
      inbound_qty: 6,
      inbound_tags: 1
    })
    assert.deepStrictEqual(checkOccupancy([right], stock, inbound, skus), [])
    assert.deepStrictEqual(
      checkOccupancy([{ ...right, tags: 2, weight: 2, over_capacity: true }], stock, inbound, skus),
      [
        "location S-01: tags 2, counted 1",
        "location S-01: weight 2, counted 1.5",
        "location S-01: over_capacity true, counted false"
      ]
    )
    assert.deepStrictEqual(checkOccupancy([{ ...right, max_tags: 1 }], stock, inbound, skus), [
      "location S-01: over_capacity false, counted true"
    ])
  })

  it("flag a claim at a location whose status lets no stock out", () => {
    const stock = [
      placed({ content_id: 1, loc_id: "S-01" }),
      placed({ content_id: 2, loc_id: "S-02" }),
      placed({ content_id: 3, loc_id: "A-01" })
    ]
    const claims = [1, 2, 3].map((id) => ({ content_id: id, qty: 1, status: "allocated" }))
    const statuses = [{ loc_id: "S-01", status: "Blocked In" as const }, {
      loc_id: "S-02",
      status: "Blocked Out" as const
    }]
    assert.deepStrictEqual(checkBlockedAllocation(stock, claims, statuses), [
      "content 2 was claimed at S-02, which is Blocked Out"
    ])
    assert.deepStrictEqual(checkBlockedAllocation(stock, claims, [{ loc_id: "S-02", status: "Active" }]), [])
  })

  it("flag a wave start that took more than was available or touched task reservations", () => {
    const before = [content({ content_id: 1, qty: 10, qty_allocated: 2, qty_tasked_from: 5 })]
    assert.deepStrictEqual(checkUntaskedAllocation(before, [{ ...before[0], qty_allocated: 5 }]), [])
    assert.deepStrictEqual(checkUntaskedAllocation(before, [{ ...before[0], qty_allocated: 6 }]), [
      "content 1: 4 allocated by the start, 3 was available"
    ])
    assert.deepStrictEqual(checkUntaskedAllocation(before, [{ ...before[0], qty_tasked_from: 4 }]), [
      "content 1: the start changed qty_tasked_from 5 to 4"
    ])
    assert.deepStrictEqual(checkUntaskedAllocation([], [content({ content_id: 2, qty_allocated: 1 })]), [
      "content 2: 1 allocated by the start, 0 was available"
    ])
    // The replenishment a start triggers tasks stock: by exactly its tasks.
    const replenished = [{ content_id: 1, quantity: 2 }]
    assert.deepStrictEqual(checkUntaskedAllocation(before, [{ ...before[0], qty_tasked_from: 7 }], replenished), [])
    assert.deepStrictEqual(checkUntaskedAllocation(before, [{ ...before[0], qty_tasked_from: 8 }], replenished), [
      "content 1: the start changed qty_tasked_from 5 to 8"
    ])
  })

  it("leave stock a location keeps in, and stock created within the same second, out of FEFO", () => {
    const early = { ...placed({ content_id: 1, loc_id: "S-01", expiry_date: "2030-02-01" }) }
    const late = placed({ content_id: 2, loc_id: "A-01", expiry_date: "2030-03-01" })
    const claims = [{ content_id: 2, qty: 1, status: "allocated" }]
    assert.strictEqual(
      checkFefo([early, late], claims, "2030-01-15", [{ loc_id: "S-01", status: "Blocked In" }]).length,
      1
    )
    assert.deepStrictEqual(checkFefo([early, late], claims, "2030-01-15", [{ loc_id: "S-01", status: "Blocked" }]), [])
    // Same expiry: the older one comes first, to the second; a moved content (higher id) keeps
    // its source's creation time, so within one second the id tells nothing.
    const older = content({ content_id: 3, created_datetime: "2030-01-01 00:00:00" })
    const newer = content({ content_id: 4, created_datetime: "2030-01-01 00:00:01" })
    assert.strictEqual(
      checkFefo([older, newer], [{ content_id: 4, qty: 1, status: "allocated" }], "2030-01-01").length,
      1
    )
    assert.deepStrictEqual(
      checkFefo([older, newer], [{ content_id: 3, qty: 1, status: "allocated" }], "2030-01-01"),
      []
    )
    const twin = content({ content_id: 5, created_datetime: "2030-01-01 00:00:00" })
    assert.deepStrictEqual(checkFefo([twin, older], [{ content_id: 3, qty: 1, status: "allocated" }], "2030-01-01"), [])
  })

  it("run the checkers of tasks, conservation, capacity and occupancy on a snapshot", () => {
    const stock = [placed({ content_id: 1, loc_id: "S-01", qty: 3, qty_tasked_from: 1 })]
    const ledger = [
      row({ content_id: 1, transaction_type: "Receipt", qty: 3, to_loc_id: "RECEIVING" }),
      row({ content_id: 1, transaction_type: "Task", qty: 1 })
    ]
    const base = { contents: stock, transactions: ledger, claims: [], skus: [] }
    const state = {
      ...base,
      tasks: [task({ id: 1, content_id: 1, quantity: 1, to_loc_id: "A-02" })],
      locations: [location({ loc_id: "S-01", qty_on_hand: 3, tags: 1 })]
    }
    assert.deepStrictEqual(checkInvariants(state), [])
    assert.deepStrictEqual(checkInvariants({ ...state, tasks: [] }), [
      "content 1: qty_tasked_from 1, open movement tasks 0"
    ])
    assert.deepStrictEqual(
      checkInvariants({
        ...state,
        locations: [location({ loc_id: "S-01", max_tags: 0, qty_on_hand: 3, tags: 1, over_capacity: true })]
      }),
      [
        "location S-01: 1 + 0 inbound tags over 0"
      ]
    )
  })

  it.prop("generate warehouses whose stock and orders only name their own SKUs", [
    arbWarehouse(),
    arbOps()
  ], ([state, ops]) => {
    const skus = new Set(state.skus.map((sku) => sku.sku_id))
    assert.strictEqual(skus.size, state.skus.length)
    for (const c of state.contents) {
      assert.isTrue(skus.has(c.sku_id))
      const sku = state.skus.find((s) => s.sku_id === c.sku_id)!
      if (sku.expiry_days === null) assert.isNull(c.expiry_in_days)
    }
    for (const order of state.orders) for (const line of order.lines) assert.isTrue(skus.has(line.sku_id))
    const locations = (state.locations ?? []).map((l) => l.loc_id)
    assert.strictEqual(new Set(locations).size, locations.length)
    for (const s of state.skus) {
      const preferred = s.preferred_putaway_location ?? null
      if (preferred !== null) assert.isTrue(locations.includes(preferred) || preferred === unmanagedLocations[0])
    }
    assert.isAtMost(ops.length, 12)
  }, { fastCheck: { numRuns: propertyRuns(50) } })

  it("generate managed locations with small limits, and SKUs that weigh, take room, come in pallets and prefer a place", () => {
    const states = fc.sample(arbWarehouse(), 100)
    const locations = states.flatMap((state) => state.locations ?? [])
    assert.isTrue(locations.some((l) => l.loc_type === "Storage" && l.max_tags !== null))
    assert.isTrue(locations.some((l) => l.max_weight !== null))
    assert.isTrue(locations.some((l) => l.max_volume != null))
    assert.isTrue(locations.some((l) => l.loc_type === "Receiving"))
    assert.isTrue(locations.every((l) => l.max_tags === null || l.max_tags <= 3))
    const skus = states.flatMap((state) => state.skus)
    assert.isTrue(skus.some((s) => s.each_weight != null))
    assert.isTrue(skus.some((s) => s.each_volume != null))
    assert.isTrue(skus.some((s) => s.qty_on_full_pallet != null))
    assert.isTrue(skus.some((s) => s.preferred_putaway_location != null))
    assert.isTrue(fc.sample(arbWarehouse({ maxLocations: 0 }), 50).every((state) => state.locations?.length === 0))
  })

  it("generate every kind of operation by default, and only the kinds a weight lets through", () => {
    const kinds = new Set(fc.sample(arbOps({ minLength: 10, maxLength: 20 }), 100).flat().map((op) => op._tag))
    assert.strictEqual(kinds.size, 14)
    const moves = fc.sample(arbOps({ minLength: 5, weights: { ...noneBut, Move: 1 } }), 20)
    assert.isTrue(moves.every((ops) => ops.length >= 5 && ops.every((op) => op._tag === "Move")))
  })

  it("generate contents with and without expiry", () => {
    const states = fc.sample(arbWarehouse(), 200)
    const contents = states.flatMap((state) => state.contents)
    assert.isTrue(contents.some((c) => c.expiry_in_days !== null))
    assert.isTrue(contents.some((c) => c.expiry_in_days === null))
    assert.isTrue(contents.some((c) => c.expiry_in_days !== null && c.expiry_in_days < 0))
  })
})

describe("the checkers of pick faces and counts of @wms/core/testing", () => {
  const replenish = (fields: Partial<MovementTaskView> & Pick<MovementTaskView, "id" | "content_id">) =>
    task({ quantity: 4, task_type: "Replenish", from_loc_id: "S-01", to_loc_id: "P-01", ...fields })
  const face = { sku_id: "A", loc_id: "P-01", min_qty: 2, max_qty: 10, replenish_multiple: null, level: 0 }
  const kinds = [
    { loc_id: "S-01", status: "Active" as const, loc_type: "Storage" as const },
    { loc_id: "S-02", status: "Blocked Out" as const, loc_type: "Storage" as const },
    { loc_id: "P-01", status: "Active" as const, loc_type: "PickFace" as const }
  ]

  it("flag a second replenishment of a face while one is Open, and one of no face's setting", () => {
    const open = [replenish({ id: 1, content_id: 1 })]
    const next = { tasks: [...open, replenish({ id: 2, content_id: 2 })], faces: [face] }
    // The tasks one operation opens are one replenishment, of several sources.
    assert.deepStrictEqual(checkOneOpenReplenishment([], next), [])
    assert.deepStrictEqual(checkOneOpenReplenishment(open, next), [
      "replenishment task 2 of A to P-01 opened while one was Open"
    ])
    assert.deepStrictEqual(checkOneOpenReplenishment([{ ...open[0], status_id: 20 }], next), [])
    // A Move task to the face is no replenishment.
    assert.deepStrictEqual(checkOneOpenReplenishment([{ ...open[0], task_type: "Move" }], next), [])
    assert.deepStrictEqual(checkOneOpenReplenishment([], { ...next, faces: [] }), [
      "replenishment task 1 of A to P-01, which is no pick face of it",
      "replenishment task 2 of A to P-01, which is no pick face of it"
    ])
  })

  it("flag a face replenished over its max, and only a face the operation replenished", () => {
    const opened = [replenish({ id: 1, content_id: 1 }), replenish({ id: 2, content_id: 2, quantity: 6 })]
    // Empty before, 4 + 6 inbound after: at its max of 10.
    assert.deepStrictEqual(checkNeverOverMax([], { tasks: opened, faces: [{ ...face, level: 10 }] }), [])
    assert.deepStrictEqual(checkNeverOverMax([], { tasks: opened, faces: [{ ...face, level: 11 }] }), [
      "pick face of A at P-01 replenished to level 11, over its max 10"
    ])
    // Over its max by a count, with the replenishment of before: not this operation's.
    assert.deepStrictEqual(checkNeverOverMax(opened, { tasks: opened, faces: [{ ...face, level: 11 }] }), [])
    // A face of another SKU at the same location was not replenished.
    const other = { ...face, sku_id: "B", level: 12 }
    assert.deepStrictEqual(checkNeverOverMax([], { tasks: opened, faces: [{ ...face, level: 10 }, other] }), [])
  })

  it("flag a replenishment source while eligible stock came first, or one that is no source", () => {
    const early = placed({ content_id: 1, loc_id: "S-01", expiry_date: "2030-02-01", qty_tasked_from: 10 })
    const late = placed({ content_id: 2, loc_id: "S-01", expiry_date: "2030-03-01", qty_tasked_from: 4 })
    const tasks = [replenish({ id: 1, content_id: 1, quantity: 10 }), replenish({ id: 2, content_id: 2 })]
    const after = { contents: [early, late], tasks, locations: kinds }
    assert.deepStrictEqual(checkReplenishmentFefo([], after, "2030-01-15"), [])
    const left = { ...after, contents: [{ ...early, qty_tasked_from: 9 }, late] }
    assert.deepStrictEqual(checkReplenishmentFefo([], left, "2030-01-15"), [
      "replenishment task 2 takes content 2 while content 1 comes first and has stock"
    ])
    // Tasks that were there before the operation are not its.
    assert.deepStrictEqual(checkReplenishmentFefo(tasks, left, "2030-01-15"), [])
    // Expired stock, and stock at a location that lets none out, are no candidates.
    assert.deepStrictEqual(checkReplenishmentFefo([], left, "2030-02-02").length, 1)
    const blocked = { ...left, contents: [{ ...early, loc_id: "S-02", qty_tasked_from: 0 }, late] }
    assert.deepStrictEqual(checkReplenishmentFefo([tasks[0]], blocked, "2030-01-15"), [])
    // The source itself: at a Storage location that lets stock out, not expired.
    assert.deepStrictEqual(checkReplenishmentFefo([tasks[0]], after, "2030-03-02"), [
      "replenishment task 2 takes content 2 at S-01, not a source"
    ])
    const fromFace = { ...after, contents: [early, { ...late, loc_id: "P-01" }] }
    assert.deepStrictEqual(checkReplenishmentFefo([tasks[0]], fromFace, "2030-01-15"), [
      "replenishment task 2 takes content 2 at P-01, not a source"
    ])
  })

  const count = (fields: Partial<CountView> = {}): CountView => ({
    id: 7,
    loc_id: "S-01",
    sku_id: null,
    status_id: 22,
    count_index: 1,
    approved_by: null,
    lines: [{ sku_id: "A", tag_id: "T1", expected: 10, in_flight: -3, qty_counted: null, variance: null }],
    ...fields
  })

  it("flag a task or claim from a frozen location, and stock there the count's lines do not account for", () => {
    const stock = [placed({ content_id: 1, loc_id: "S-01", qty: 7 }), placed({ content_id: 2, loc_id: "A-01" })]
    const before = { counts: [count()], contents: stock, tasks: [] }
    const after = { ...before, claims: [] }
    assert.deepStrictEqual(checkFreeze(before, after), [])
    assert.deepStrictEqual(
      checkFreeze(before, { ...after, tasks: [task({ id: 3, content_id: 1, quantity: 1, from_loc_id: "S-01" })] }),
      ["movement task 3 takes stock from S-01, which count 7 froze"]
    )
    // Without its source location, a task is placed by its content.
    assert.strictEqual(
      checkFreeze(before, { ...after, tasks: [task({ id: 3, content_id: 1, quantity: 1 })] }).length,
      1
    )
    assert.deepStrictEqual(
      checkFreeze(before, { ...after, contents: [{ ...stock[0], qty_allocated: 2 }, stock[1]] }),
      ["content 1 at S-01 was allocated 2 more while count 7 froze it"]
    )
    assert.deepStrictEqual(checkFreeze(before, { ...after, contents: [{ ...stock[0], qty: 8 }, stock[1]] }), [
      "count 7 of S-01: 8 of A there, its lines say 7 (expected + in flight)"
    ])
    // Stock elsewhere, and a count not yet released or over, freeze nothing.
    assert.deepStrictEqual(checkFreeze(before, { ...after, contents: [stock[0], { ...stock[1], qty: 1 }] }), [])
    const open = { ...before, counts: [count({ status_id: 1 })] }
    const tasked = { ...after, counts: open.counts, tasks: [task({ id: 3, content_id: 1, quantity: 1 })] }
    assert.deepStrictEqual(checkFreeze(open, tasked), [])
  })

  it("flag a completed count whose stock or Count rows are not what it counted", () => {
    const done = count({
      status_id: 20,
      lines: [
        { sku_id: "A", tag_id: "T1", expected: 10, in_flight: -3, qty_counted: 9, variance: 2 },
        { sku_id: "A", tag_id: null, expected: 0, in_flight: 0, qty_counted: 4, variance: 4 }
      ]
    })
    const stock = [
      placed({ content_id: 1, loc_id: "S-01", qty: 9, tag_id: "T1" }),
      placed({ content_id: 5, loc_id: "S-01", qty: 4, tag_id: "T9" })
    ]
    const rows = [
      { content_id: 1, transaction_type: "Count" as const, qty: 2, notes: "Count 7" },
      { content_id: 5, transaction_type: "Count" as const, qty: 4, notes: "Count 7" }
    ]
    const after = { counts: [done], contents: stock, transactions: rows }
    assert.deepStrictEqual(checkCountLedger({ counts: [count()] }, after), [])
    // Only the operation that completed it is checked: stock moves on afterwards.
    assert.deepStrictEqual(checkCountLedger(after, { ...after, contents: [] }), [])
    assert.deepStrictEqual(
      checkCountLedger({ counts: [] }, { ...after, contents: [{ ...stock[0], qty: 8 }, stock[1]] }),
      [
        "count 7 of S-01: 12 of A there, 13 counted",
        "count 7 of S-01: 8 of A under tag T1 there, 9 counted"
      ]
    )
    assert.deepStrictEqual(checkCountLedger({ counts: [] }, { ...after, transactions: rows.slice(1) }), [
      "count 7: its Count rows sum to 4, Σ counted − Σ (expected + in flight) is 6"
    ])
    // Another count's rows are not its.
    const other = rows.map((row) => ({ ...row, notes: "Count 8" }))
    assert.strictEqual(checkCountLedger({ counts: [] }, { ...after, transactions: other }).length, 1)
  })

  it("flag Count rows of a count over the threshold that no admin approved, or of one not Complete", () => {
    const over = count({
      status_id: 20,
      approved_by: "boss",
      lines: [{
        sku_id: "A",
        tag_id: "T1",
        expected: 10,
        in_flight: 0,
        qty_counted: 4,
        variance: -6,
        within_threshold: false
      }]
    })
    const rows = [{ content_id: 1, transaction_type: "Count" as const, qty: -6, notes: "Count 7" }]
    const admins = (userId: string) => userId === "boss"
    assert.deepStrictEqual(checkThreshold([over], rows, admins), [])
    assert.deepStrictEqual(checkThreshold([{ ...over, approved_by: null }], rows, admins), [
      "count 7 has lines over the threshold and wrote Count rows without an admin's approval"
    ])
    assert.strictEqual(checkThreshold([{ ...over, approved_by: "clerk" }], rows, admins).length, 1)
    assert.deepStrictEqual(checkThreshold([{ ...over, status_id: 23, approved_by: null }], rows, admins), [
      "count 7 wrote Count rows while 23"
    ])
    // Within the threshold, or without rows, no approval is needed.
    const within = { ...over, approved_by: null, lines: [{ ...over.lines[0], within_threshold: true }] }
    assert.deepStrictEqual(checkThreshold([within], rows, admins), [])
    assert.deepStrictEqual(checkThreshold([{ ...over, approved_by: null, status_id: 23 }], [], admins), [])
  })

  it("generate pick faces and a reserve, a threshold, and the operations of faces, counts and short picks only when asked", () => {
    const weights = { ...cycleWeights, ...shortPickWeights }
    const kinds = new Set(
      fc.sample(arbOps({ minLength: 20, maxLength: 30, weights }), 100).flat().map((op) => op._tag)
    )
    assert.strictEqual(kinds.size, opKinds.length)
    const plain = new Set(fc.sample(arbOps({ minLength: 20, maxLength: 30 }), 100).flat().map((op) => op._tag))
    assert.isFalse([...plain].some((kind) => kind in cycleWeights || kind === "ShortPick" || kind === "SetShortPicks"))
    const states = fc.sample(arbWarehouse({ maxPickFaces: 2, countThreshold: true }), 50)
    assert.isTrue(states.every((state) => state.count_variance_threshold !== undefined))
    assert.isTrue(states.every((state) => state.locations?.some((l) => l.loc_type === "PickFace")))
    assert.isTrue(states.some((state) => state.contents.some((c) => c.loc_id === "R-01")))
    assert.isTrue(
      fc.sample(arbWarehouse(), 50).every((state) =>
        state.count_variance_threshold === undefined && !state.locations?.some((l) => l.loc_type === "PickFace")
      )
    )
  })
})

describe("the checkers of short picks", () => {
  const claim = (fields: Partial<LineClaimView> & { readonly id: number }): LineClaimView => ({
    content_id: 1,
    qty: 1,
    status: "allocated",
    order_id: "SO-1",
    line_id: 1,
    ...fields
  })
  const order = (
    order_id: string,
    status: number,
    lines: ReadonlyArray<{ qty: number; qty_picked: number; qty_shipped?: number; qty_backordered?: number }>,
    backorder_of?: string
  ) => ({
    order_id,
    order_status: { id: status },
    ...(backorder_of === undefined ? {} : { backorder_of }),
    lines: lines.map((line, i) => ({ line: i + 1, qty_shipped: 0, ...line }))
  })

  it("flag a line holding more than it asks for, and backordered units not on exactly one backorder", () => {
    // 10 asked: 4 picked, 3 claimed, 3 backordered, shipped with its backorder of 3.
    const shipped = order("SO-1", 19, [{ qty: 10, qty_picked: 4, qty_shipped: 4, qty_backordered: 3 }])
    const backorder = order("SO-1-B1", 14, [{ qty: 3, qty_picked: 0 }], "SO-1")
    const open = [claim({ id: 1, qty: 3, status: "picked" }), claim({ id: 2, qty: 3, order_id: "SO-2" })]
    assert.deepStrictEqual(checkDemand([shipped, backorder], open), [])
    const over = order("SO-2", 17, [{ qty: 5, qty_picked: 2, qty_backordered: 1 }])
    assert.deepStrictEqual(checkDemand([over], open), [
      "order SO-2 line 1 asks 5 but holds 2 picked, 3 claimed and 1 backordered (0 shipped)"
    ])
    assert.deepStrictEqual(checkDemand([shipped], []), [
      "line SO-1/1: shipped orders backordered 3, its backorders hold 0"
    ])
    const twice = order("SO-1-B2", 14, [{ qty: 3, qty_picked: 0 }], "SO-1")
    assert.strictEqual(checkDemand([shipped, backorder, twice], []).length, 1)
    // A backorder of a backorder counts against the first order of the chain.
    const again = order("SO-1-B1", 19, [{ qty: 3, qty_picked: 2, qty_shipped: 2, qty_backordered: 1 }], "SO-1")
    const last = order("SO-1-B2", 14, [{ qty: 1, qty_picked: 0 }], "SO-1")
    assert.deepStrictEqual(checkDemand([shipped, again, last], []), [])
  })

  it("flag a short pick's claims off its line or its FEFO order, and rows beyond its loss and claims", () => {
    // Task 1 shorted at content 1 (first in FEFO: left out); content 2 comes before content 3.
    const contents = [
      placed({ content_id: 1, loc_id: "A", qty: 5 }),
      placed({ content_id: 2, loc_id: "A", qty: 4, qty_allocated: 4, expiry_date: "2030-02-01" }),
      placed({ content_id: 3, loc_id: "B", qty: 4, qty_allocated: 1, expiry_date: "2030-03-01" })
    ]
    const shorted = claim({ id: 1, qty: 6 })
    const before = {
      claims: [shorted],
      transactions: [{ id: 1, content_id: 1, transaction_type: "Allocate" as const, qty: 6 }]
    }
    const written = [
      { id: 2, content_id: 2, transaction_type: "Allocate" as const, qty: 4 },
      { id: 3, content_id: 3, transaction_type: "Allocate" as const, qty: 1 },
      { id: 4, content_id: 1, transaction_type: "Pick" as const, qty: 1 },
      { id: 5, content_id: 1, transaction_type: "Lost" as const, qty: 5 }
    ]
    const after = {
      contents,
      claims: [claim({ id: 2, content_id: 2, qty: 4 }), claim({ id: 3, content_id: 3, qty: 1 })],
      transactions: [...before.transactions, ...written],
      locations: []
    }
    const change = { before, after, taskId: 1, today: "2030-01-01" }
    assert.deepStrictEqual(checkShortPick(change), [])
    // Content 2 left with stock while 3 was taken: out of FEFO order.
    const unordered = { ...after, contents: [contents[0], { ...contents[1], qty_allocated: 3 }, contents[2]] }
    assert.deepStrictEqual(checkShortPick({ ...change, after: unordered }), [
      "content 3 was claimed while content 2 comes first and has stock"
    ])
    const elsewhere = { ...after, claims: [...after.claims, claim({ id: 4, content_id: 3, order_id: "SO-9" })] }
    assert.include(checkShortPick({ ...change, after: elsewhere })[0], "claimed for SO-9 line 1")
    const adjusted = {
      ...after,
      transactions: [...after.transactions, { id: 6, content_id: 1, transaction_type: "Adjustment" as const, qty: 1 }]
    }
    assert.deepStrictEqual(checkShortPick({ ...change, after: adjusted }), [
      "short pick of task 1 wrote a transaction of type Adjustment"
    ])
    const unwritten = { ...after, transactions: after.transactions.filter((row) => row.id !== 3) }
    assert.deepStrictEqual(checkShortPick({ ...change, after: unwritten }), [
      "short pick of task 1 wrote Allocate rows of 4 for claims of 5"
    ])
  })
})

describe("the port stubs of @wms/core/testing", () => {
  const defectOf = <A, E>(exit: Exit.Exit<A, E>) =>
    Exit.isFailure(exit) ? Cause.pretty(exit.cause).split("\n")[0] : "succeeded"

  it.effect("a test layer provides the methods given and records their calls", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      const orders = yield* OrderRepository
      assert.isTrue(yield* orders.carrierVisible(siteScope, 7))
      assert.deepStrictEqual(yield* orders.lineNumbers(3), [1, 2])
      assert.deepStrictEqual(log.calls, [
        { method: "OrderRepository.carrierVisible", args: [siteScope, 7] },
        { method: "OrderRepository.lineNumbers", args: [3] }
      ])
      assert.deepStrictEqual(log.methods, ["OrderRepository.carrierVisible", "OrderRepository.lineNumbers"])
      assert.deepStrictEqual(log.argsOf("OrderRepository.lineNumbers"), [[3]])
    }).pipe(Effect.provide(
      makeTestLayer(OrderRepository)({
        carrierVisible: () => Effect.succeed(true),
        lineNumbers: () => Effect.succeed([1, 2])
      }, log)
    ))
  })

  it.effect("a method not given dies naming itself, whether it is called or is an Effect", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const sites = yield* SiteRepository
      assert.strictEqual(
        defectOf(yield* Effect.exit(orders.lock(1))),
        "RuntimeException: OrderRepository.lock is not implemented by this test layer"
      )
      assert.strictEqual(
        defectOf(yield* Effect.exit(sites.listSites)),
        "RuntimeException: SiteRepository.listSites is not implemented by this test layer"
      )
      assert.isTrue("remove" in orders)
    }).pipe(
      Effect.provide(makeTestLayer(OrderRepository)({ find: () => Effect.succeed(Option.none()) })),
      Effect.provide(makeTestLayer(SiteRepository)({}))
    ))

  it.effect("the test transactor marks where each transaction begins, commits and rolls back", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      const { atomically } = yield* Transactor
      assert.strictEqual(yield* atomically(Effect.succeed(1)), 1)
      yield* Effect.exit(atomically(Effect.fail("refused")))
      yield* Effect.exit(atomically(Effect.die("broken")))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "Transactor.commit",
        "Transactor.begin",
        "Transactor.rollback",
        "Transactor.begin",
        "Transactor.rollback"
      ])
    }).pipe(Effect.provide(testTransactor(log)))
  })

  it.effect("the test event publisher keeps every event in order", () => {
    const events = makeTestEventPublisher()
    const event = (event_type: "order_shipped" | "wave_started", data: number) => ({
      event_type,
      site_id: "main",
      client_id: null,
      data
    })
    return Effect.gen(function*() {
      const publisher = yield* EventPublisher
      yield* publisher.publish(event("wave_started", 1))
      yield* publisher.publishAll([event("order_shipped", 2), event("order_shipped", 3)])
      assert.deepStrictEqual(events.published, [
        event("wave_started", 1),
        event("order_shipped", 2),
        event("order_shipped", 3)
      ])
    }).pipe(Effect.provide(events.layer))
  })
})
