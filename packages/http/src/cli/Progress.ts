/**
 * The progress of an import on a terminal: a bar of the file's bytes read, with the rows written
 * and refused so far and the time taken, on standard error, and only when that is a terminal, so
 * that a script or a log gets the report alone.
 */
import { Presets, SingleBar } from "cli-progress"

export interface Progress {
  /** The bytes read so far, and the report's counts. */
  readonly update: (bytes: number, counts: { readonly written: number; readonly failed: number }) => void
  readonly stop: () => void
}

const silent: Progress = { update: () => {}, stop: () => {} }

/** A bar to `totalBytes` when standard error is a terminal and the size is known; else nothing. */
export const progressOf = (totalBytes: number | undefined): Progress => {
  if (process.stderr.isTTY !== true || totalBytes === undefined) return silent
  const bar = new SingleBar({
    stream: process.stderr,
    format: "{bar} {percentage}% | {written} written, {failed} not written | {duration_formatted}",
    hideCursor: true
  }, Presets.shades_classic)
  bar.start(totalBytes, 0, { written: 0, failed: 0 })
  return {
    update: (bytes, counts) => bar.update(bytes, counts),
    stop: () => bar.stop()
  }
}
