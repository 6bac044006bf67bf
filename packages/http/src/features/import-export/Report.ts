/**
 * The answer of an import: how many rows were read and written, and why each row that was not
 * written failed. The count of failed rows is whole; the list of errors stops at
 * `maxListedErrors`, so that a file of bad rows does not make an answer as large as itself.
 */
import { Schema } from "effect"

export const maxListedErrors = 1000

export const RowError = Schema.Struct({
  row: Schema.Number.annotations({
    description: "The line of the file where the row starts: the CSV header is line 1"
  }),
  field: Schema.NullOr(Schema.String).annotations({
    description: "The field at fault (a CSV column name), or null when the failure names none"
  }),
  message: Schema.String.annotations({ description: "The message the single-record endpoint answers" })
})
export type RowError = typeof RowError.Type

export const ImportReport = Schema.Struct({
  rows: Schema.Number.annotations({ description: "Rows read: CSV rows but the header, NDJSON lines but blank ones" }),
  written: Schema.Number.annotations({ description: "Rows written" }),
  failed: Schema.Number.annotations({ description: "Rows not written: rows − written" }),
  errors: Schema.Array(RowError).annotations({
    description: `Why each row that was not written failed, in file order; the first ${maxListedErrors}`
  })
})
export type ImportReport = typeof ImportReport.Type

/** A report as an import makes it, row by row. */
export class Tally {
  rows = 0
  written = 0
  failed = 0
  private readonly errors: Array<RowError> = []

  wrote(rows: number): void {
    this.rows += rows
    this.written += rows
  }

  /** Rows not written, each with at least one error. */
  refused(rows: number, errors: ReadonlyArray<RowError>): void {
    this.rows += rows
    this.failed += rows
    for (const error of errors) {
      if (this.errors.length < maxListedErrors) this.errors.push(error)
    }
  }

  get report(): ImportReport {
    return { rows: this.rows, written: this.written, failed: this.failed, errors: this.errors }
  }
}
