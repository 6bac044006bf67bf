/**
 * The lines of a count, pure: the snapshot of one count index beside the lines recorded for it.
 * A recorded line with a tag counts the snapshot's contents of its SKU and tag; one without a tag
 * counts the contents of its SKU whose tag no other line names; a snapshot content no line counts
 * was counted 0 once anything is recorded. A line that matches no content is found stock.
 */
import type { CountVarianceThreshold } from "../admin/SiteSettings.js"
import type { RecordedLine, SnapshotContent } from "./Count.js"

/** One line of a count with what it covers and, once recorded, its variance. */
export interface TallyLine {
  readonly sku_id: string
  readonly tag_id: string | null
  readonly client_id: string | null
  readonly expiry_date: string | null
  /** The snapshot contents the line covers, by content id; none: found stock. */
  readonly contents: ReadonlyArray<SnapshotContent>
  readonly expected: number
  readonly in_flight: number
  /** Null until the count index has recorded lines. */
  readonly qty_counted: number | null
  /** `qty_counted − (expected + in_flight)`; null until counted. */
  readonly variance: number | null
}

const keyOf = (skuId: string, tagId: string) => JSON.stringify([skuId, tagId])

const byKey = (a: TallyLine, b: TallyLine) =>
  a.sku_id < b.sku_id ? -1 : a.sku_id > b.sku_id ? 1 : (a.tag_id ?? "") < (b.tag_id ?? "") ? -1 : 1

const lineOf = (
  fields: Pick<TallyLine, "sku_id" | "tag_id" | "client_id" | "expiry_date">,
  contents: ReadonlyArray<SnapshotContent>,
  counted: number | null
): TallyLine => {
  const expected = contents.reduce((sum, c) => sum + c.expected, 0)
  const inFlight = contents.reduce((sum, c) => sum + c.in_flight, 0)
  return {
    ...fields,
    contents: [...contents].sort((a, b) => a.content_id - b.content_id),
    expected,
    in_flight: inFlight,
    qty_counted: counted,
    variance: counted === null ? null : counted - (expected + inFlight)
  }
}

/** The lines of a count index: every recorded line, then every snapshot content no line counts. */
export const tally = (
  snapshot: ReadonlyArray<SnapshotContent>,
  recorded: ReadonlyArray<RecordedLine>
): ReadonlyArray<TallyLine> => {
  const groups = new Map<string, Array<SnapshotContent>>()
  for (const content of snapshot) {
    const key = keyOf(content.sku_id, content.tag_id)
    groups.set(key, [...(groups.get(key) ?? []), content])
  }
  const lines: Array<TallyLine> = []
  for (const line of recorded) {
    if (line.tag_id === null) continue
    const key = keyOf(line.sku_id, line.tag_id)
    const contents = groups.get(key) ?? []
    groups.delete(key)
    lines.push(lineOf(
      {
        sku_id: line.sku_id,
        tag_id: line.tag_id,
        client_id: contents[0]?.client_id ?? line.client_id,
        expiry_date: contents[0]?.expiry_date ?? line.expiry_date
      },
      contents,
      line.qty_counted
    ))
  }
  for (const line of recorded) {
    if (line.tag_id !== null) continue
    const contents: Array<SnapshotContent> = []
    for (const [key, group] of groups) {
      if (group[0].sku_id !== line.sku_id) continue
      contents.push(...group)
      groups.delete(key)
    }
    lines.push(lineOf(
      {
        sku_id: line.sku_id,
        tag_id: contents.length === 1 ? contents[0].tag_id : null,
        client_id: contents[0]?.client_id ?? line.client_id,
        expiry_date: contents[0]?.expiry_date ?? line.expiry_date
      },
      contents,
      line.qty_counted
    ))
  }
  const uncounted = recorded.length === 0 ? null : 0
  for (const group of groups.values()) {
    lines.push(lineOf(
      {
        sku_id: group[0].sku_id,
        tag_id: group[0].tag_id,
        client_id: group[0].client_id,
        expiry_date: group[0].expiry_date
      },
      group,
      uncounted
    ))
  }
  return lines.sort(byKey)
}

/**
 * Whether a counted line is within the threshold: `|variance| ≤ units` (if set) and `|variance| ≤
 * percent × (expected + in_flight) / 100` (if set), what should be there being the base.
 */
export const withinThreshold = (line: TallyLine, threshold: CountVarianceThreshold): boolean => {
  if (line.variance === null) return false
  const off = Math.abs(line.variance)
  if (threshold.units !== null && off > threshold.units) return false
  if (threshold.percent !== null && off > threshold.percent * (line.expected + line.in_flight) / 100) return false
  return true
}

/**
 * What each covered content should hold once the line applies, in content id order: each up to
 * what should be there, the last one the rest (a surplus lands on the newest content, a shortfall
 * empties the newest first). A line of found stock has no content: its whole count is new stock.
 */
export const targets = (
  line: TallyLine
): ReadonlyArray<{ readonly content: SnapshotContent; readonly qty: number }> => {
  let rest = line.qty_counted ?? 0
  return line.contents.map((content, i) => {
    const qty = i === line.contents.length - 1
      ? rest
      : Math.min(rest, Math.max(0, content.expected + content.in_flight))
    rest -= qty
    return { content, qty }
  })
}
