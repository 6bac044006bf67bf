/**
 * The contract of the other master data's ports on both stores: `PartnerRepository` (customers and
 * suppliers), `CarrierRepository` and `WaveDefinitionRepository`.
 */
import { assert, describe } from "@effect/vitest"
import {
  CarrierRepository,
  type PartnerKind,
  PartnerRepository,
  PreAdviceRepository,
  SiteId,
  UserId,
  WaveDefinitionRepository
} from "@wms/core"
import { Effect, Option } from "effect"
import {
  carrierInput,
  fresh,
  insertCarrier,
  insertOrder,
  insertPartner,
  makeTenants,
  onEachStore,
  partnerInput,
  waitsForCommit
} from "./Contract.js"

const kinds: ReadonlyArray<PartnerKind> = ["customer", "supplier"]

onEachStore("master data", (it) => {
  describe("PartnerRepository", () => {
    for (const kind of kinds) {
      it.effect(`inserts a ${kind}, finds it with its owner, updates and removes it`, () =>
        Effect.gen(function*() {
          const partners = yield* PartnerRepository
          const t = yield* makeTenants
          const input = partnerInput("Name", { attention: "", address: "Street 1", town: "Town", website: null })
          const id = yield* partners.insert(kind, t.client1.owner, input)
          assert.strictEqual(typeof id, "number")
          assert.deepStrictEqual(
            yield* partners.find(kind, id, "none"),
            Option.some({ owner: t.client1.owner, record: { id, address_id: id, ...input } })
          )
          // The other kind's table has its own ids.
          const other = kind === "customer" ? "supplier" : "customer"
          const found = yield* partners.find(other, id, "none")
          assert.isTrue(Option.isNone(found) || found.value.record.name !== "Name")

          const changed = partnerInput("Changed", { country: "NL", phone: "" })
          assert.isTrue(yield* partners.update(kind, id, changed))
          assert.deepStrictEqual(
            yield* partners.find(kind, id, "share"),
            Option.some({ owner: t.client1.owner, record: { id, address_id: id, ...changed } })
          )
          yield* partners.remove(kind, id)
          assert.isTrue(Option.isNone(yield* partners.find(kind, id, "update")))
          assert.isFalse(yield* partners.update(kind, id, changed))
        }))

      it.effect(`lists the ${kind}s a scope sees by id, in windows`, () =>
        Effect.gen(function*() {
          const partners = yield* PartnerRepository
          const t = yield* makeTenants
          const ids = {
            site: yield* insertPartner(kind, t.site.owner, "site"),
            client1: yield* insertPartner(kind, t.client1.owner, "client 1"),
            client2: yield* insertPartner(kind, t.client2.owner, "client 2"),
            other: yield* insertPartner(kind, t.other.owner, "other")
          }
          const listed = yield* partners.list(kind, t.site.scope, {})
          assert.deepStrictEqual(listed.map((p) => p.id), [ids.site, ids.client1, ids.client2])
          assert.deepStrictEqual(listed[1], { id: ids.client1, address_id: ids.client1, ...partnerInput("client 1") })
          assert.deepStrictEqual((yield* partners.list(kind, t.client1.scope, {})).map((p) => p.id), [ids.client1])
          assert.deepStrictEqual((yield* partners.list(kind, t.other.scope, {})).map((p) => p.id), [ids.other])
          const window = yield* partners.list(kind, t.site.scope, { limit: 1, offset: 1 })
          assert.deepStrictEqual(window.map((p) => p.id), [ids.client1])
        }))

      it.effect(`find with a lock keeps a writer of the ${kind} out until the transaction ends`, () =>
        Effect.gen(function*() {
          const partners = yield* PartnerRepository
          const t = yield* makeTenants
          const id = yield* insertPartner(kind, t.site.owner, "Before")
          for (const lock of ["share", "update"] as const) {
            const seen = yield* waitsForCommit(
              partners.find(kind, id, lock),
              Effect.zipRight(partners.update(kind, id, partnerInput(lock)), partners.find(kind, id, "none"))
            )
            assert.strictEqual(Option.getOrThrow(seen).record.name, lock)
          }
        }))
    }

    it.effect("tells whether an order refers to a customer, and a pre-advice to a supplier", () =>
      Effect.gen(function*() {
        const partners = yield* PartnerRepository
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const customer = yield* insertPartner("customer", t.site.owner, "Customer")
        const supplier = yield* insertPartner("supplier", t.site.owner, "Supplier")
        assert.isFalse(yield* partners.isReferenced("customer", customer))
        assert.isFalse(yield* partners.isReferenced("supplier", supplier))
        yield* insertOrder(t.site.owner, fresh("O"), [], { customer_id: customer })
        yield* preAdvices.insert({
          site_id: t.site.owner.site_id,
          pre_advice_id: fresh("PA"),
          client_id: null,
          status_id: 1,
          supplier_id: supplier,
          created_at: "2030-01-01T08:00:00.000Z",
          created_by: UserId.make("tester")
        })
        assert.isTrue(yield* partners.isReferenced("customer", customer))
        assert.isTrue(yield* partners.isReferenced("supplier", supplier))
        // A customer and a supplier of the same id are told apart.
        const twin = yield* insertPartner("supplier", t.site.owner, "Twin")
        assert.isFalse(yield* partners.isReferenced("supplier", twin))
      }))
  })

  describe("CarrierRepository", () => {
    it.effect("inserts a carrier of a site, finds it on any site, updates and removes it", () =>
      Effect.gen(function*() {
        const carriers = yield* CarrierRepository
        const t = yield* makeTenants
        const input = carrierInput("Carrier", { address: "", town: "Town", url: "https://example.com" })
        const id = yield* carriers.insert(t.site.owner.site_id, input)
        assert.strictEqual(typeof id, "number")
        const site_id = t.site.owner.site_id
        assert.deepStrictEqual(yield* carriers.find(id, "none"), Option.some({ id, site_id, ...input }))
        const changed = carrierInput("Changed", { phone: "", country: "BE" })
        assert.isTrue(yield* carriers.update(id, changed))
        assert.deepStrictEqual(yield* carriers.find(id, "share"), Option.some({ id, site_id, ...changed }))
        yield* carriers.remove(id)
        assert.isTrue(Option.isNone(yield* carriers.find(id, "update")))
        assert.isFalse(yield* carriers.update(id, changed))
      }))

    it.effect("lists the carriers of a site by id, in windows", () =>
      Effect.gen(function*() {
        const carriers = yield* CarrierRepository
        const t = yield* makeTenants
        const ids = [
          yield* insertCarrier(t.site.owner.site_id, "b"),
          yield* insertCarrier(t.site.owner.site_id, "A")
        ]
        yield* insertCarrier(t.other.owner.site_id, "other")
        const listed = yield* carriers.list(t.site.owner.site_id, {})
        assert.deepStrictEqual(listed, [
          { id: ids[0], site_id: t.site.owner.site_id, ...carrierInput("b") },
          { id: ids[1], site_id: t.site.owner.site_id, ...carrierInput("A") }
        ])
        assert.deepStrictEqual(yield* carriers.list(t.site.owner.site_id, { offset: 1 }), [listed[1]])
        assert.deepStrictEqual(yield* carriers.list(SiteId.make(fresh("nowhere")), {}), [])
      }))

    it.effect("tells whether an order refers to a carrier", () =>
      Effect.gen(function*() {
        const carriers = yield* CarrierRepository
        const t = yield* makeTenants
        const used = yield* insertCarrier(t.site.owner.site_id, "Used")
        const unused = yield* insertCarrier(t.site.owner.site_id, "Unused")
        yield* insertOrder(t.client2.owner, fresh("O"), [], { carrier_id: used })
        assert.isTrue(yield* carriers.isReferenced(used))
        assert.isFalse(yield* carriers.isReferenced(unused))
      }))

    it.effect("find with a lock keeps a writer of the carrier out until the transaction ends", () =>
      Effect.gen(function*() {
        const carriers = yield* CarrierRepository
        const t = yield* makeTenants
        const id = yield* insertCarrier(t.site.owner.site_id, "Before")
        for (const lock of ["share", "update"] as const) {
          const seen = yield* waitsForCommit(
            carriers.find(id, lock),
            Effect.zipRight(carriers.update(id, carrierInput(lock)), carriers.find(id, "none"))
          )
          assert.strictEqual(Option.getOrThrow(seen).name, lock)
        }
      }))
  })

  describe("WaveDefinitionRepository", () => {
    it.effect("inserts, finds, updates and removes a definition on its own site only", () =>
      Effect.gen(function*() {
        const definitions = yield* WaveDefinitionRepository
        const t = yield* makeTenants
        const [site, other] = [t.site.owner.site_id, t.other.owner.site_id]
        const input = { description: "All", criterium_id: 5, value: null, pick_type: 1, autostart: false } as const
        const id = yield* definitions.insert(site, input)
        assert.strictEqual(typeof id, "number")
        assert.deepStrictEqual(yield* definitions.find(site, id), Option.some({ id, site_id: site, ...input }))
        assert.isTrue(Option.isNone(yield* definitions.find(other, id)))

        const changed = { description: "By town", criterium_id: 8, value: "", pick_type: 4, autostart: true } as const
        assert.isFalse(yield* definitions.update(other, id, changed))
        assert.isTrue(yield* definitions.update(site, id, changed))
        assert.deepStrictEqual(yield* definitions.find(site, id), Option.some({ id, site_id: site, ...changed }))

        assert.isFalse(yield* definitions.remove(other, id))
        assert.isTrue(yield* definitions.remove(site, id))
        assert.isFalse(yield* definitions.remove(site, id))
        assert.isFalse(yield* definitions.update(site, id, changed))
        assert.isTrue(Option.isNone(yield* definitions.find(site, id)))
      }))

    it.effect("lists the definitions of a site by id, in windows", () =>
      Effect.gen(function*() {
        const definitions = yield* WaveDefinitionRepository
        const t = yield* makeTenants
        const input = (description: string) =>
          ({ description, criterium_id: 1, value: "x", pick_type: 2, autostart: true }) as const
        const ids = [
          yield* definitions.insert(t.site.owner.site_id, input("first")),
          yield* definitions.insert(t.site.owner.site_id, input("second")),
          yield* definitions.insert(t.site.owner.site_id, input("third"))
        ]
        yield* definitions.insert(t.other.owner.site_id, input("other"))
        const listed = yield* definitions.list(t.site.owner.site_id, {})
        assert.deepStrictEqual(listed.map((d) => d.id), ids)
        assert.deepStrictEqual(listed[0], { id: ids[0], site_id: t.site.owner.site_id, ...input("first") })
        assert.deepStrictEqual(yield* definitions.list(t.site.owner.site_id, { limit: 1, offset: 2 }), [listed[2]])
      }))
  })
})
