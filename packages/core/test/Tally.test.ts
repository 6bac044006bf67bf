import { assert, describe, it } from "@effect/vitest"
import { type RecordedLine, type SnapshotContent, Tally } from "@wms/core"

const content = (contentId: number, tagId: string, expected: number, fields: Partial<SnapshotContent> = {}) => ({
  content_id: contentId,
  client_id: null,
  sku_id: "A",
  tag_id: tagId,
  expiry_date: null,
  expected,
  in_flight: 0,
  ...fields
})

const line = (tagId: string | null, counted: number, fields: Partial<RecordedLine> = {}): RecordedLine => ({
  sku_id: "A",
  client_id: null,
  tag_id: tagId,
  expiry_date: null,
  qty_counted: counted,
  ...fields
})

const shown = (lines: ReadonlyArray<Tally.TallyLine>) =>
  lines.map((
    l
  ) => [l.sku_id, l.tag_id, l.contents.map((c) => c.content_id), l.expected, l.in_flight, l.qty_counted, l.variance])

describe("the lines of a count", () => {
  it("are uncounted until something is recorded, then a snapshot content no line names counts 0", () => {
    const snapshot = [content(1, "T1", 5), content(2, "T2", 3, { in_flight: -1 })]
    assert.deepStrictEqual(shown(Tally.tally(snapshot, [])), [
      ["A", "T1", [1], 5, 0, null, null],
      ["A", "T2", [2], 3, -1, null, null]
    ])
    assert.deepStrictEqual(shown(Tally.tally(snapshot, [line("T1", 4)])), [
      ["A", "T1", [1], 5, 0, 4, -1],
      ["A", "T2", [2], 3, -1, 0, -2]
    ])
  })

  it("count found stock, and an untagged line the SKU's contents no tagged line names", () => {
    const snapshot = [
      content(1, "T1", 5),
      content(2, "T2", 3),
      content(3, "T2", 1),
      content(4, "T1", 2, { sku_id: "B" })
    ]
    assert.deepStrictEqual(shown(Tally.tally(snapshot, [line(null, 2), line("T9", 6), line("T1", 5)])), [
      ["A", null, [2, 3], 4, 0, 2, -2],
      ["A", "T1", [1], 5, 0, 5, 0],
      ["A", "T9", [], 0, 0, 6, 6],
      ["B", "T1", [4], 2, 0, 0, -2]
    ])
  })

  it("are within the threshold by units and by percent of what should be there, each when set", () => {
    const at = (expected: number, counted: number) =>
      Tally.tally([content(1, "T1", expected)], [line("T1", counted)])[0]
    const none = { percent: null, units: null }
    assert.isTrue(Tally.withinThreshold(at(10, 0), none))
    assert.isTrue(Tally.withinThreshold(at(10, 8), { percent: null, units: 2 }))
    assert.isFalse(Tally.withinThreshold(at(10, 7), { percent: null, units: 2 }))
    assert.isTrue(Tally.withinThreshold(at(10, 9), { percent: 10, units: null }))
    assert.isFalse(Tally.withinThreshold(at(10, 12), { percent: 10, units: null }))
    assert.isFalse(Tally.withinThreshold(at(10, 9), { percent: 10, units: 0 }))
    assert.isFalse(Tally.withinThreshold(Tally.tally([content(1, "T1", 1)], [])[0], none))
  })

  it("apply up to what each content should hold, the newest taking the rest", () => {
    const snapshot = [content(2, "T", 3, { in_flight: -1 }), content(1, "T", 4)]
    const targets = (counted: number) =>
      Tally.targets(Tally.tally(snapshot, [line("T", counted)])[0]).map((t) => [t.content.content_id, t.qty])
    assert.deepStrictEqual(targets(6), [[1, 4], [2, 2]])
    assert.deepStrictEqual(targets(9), [[1, 4], [2, 5]])
    assert.deepStrictEqual(targets(3), [[1, 3], [2, 0]])
    assert.deepStrictEqual(Tally.targets(Tally.tally([], [line("N", 2)])[0]), [])
  })
})
