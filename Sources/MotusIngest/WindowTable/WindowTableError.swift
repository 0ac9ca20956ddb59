// Everything that can be wrong with a window table read back for training, or with the spec
// file beside it. Each case names the place (the file, and the line and column or the row)
// and its description ends with a hint.

import MotusData

/// A window table or its spec that cannot be trained on as it is.
public enum WindowTableError: Error, Equatable, CustomStringConvertible {
  case unreadable(file: String, reason: String)
  case notText(file: String, encoding: String)
  /// A format this build does not read (a Parquet table).
  case badSpec(file: String, reason: String)
  case noHeader(file: String)
  case noRows(file: String)
  case duplicateColumn(name: String, file: String)
  case missingColumn(name: String, file: String, available: [String])
  case raggedRow(at: String, expected: Int, found: Int)
  case unterminatedQuote(at: String)
  /// The table's feature columns are not the spec's: the first that differs, 1-based among the
  /// features; nil on one side when that side has fewer.
  case featureColumnsDiffer(
    file: String, specFile: String, position: Int, table: String?, spec: String?,
    tableCount: Int, specCount: Int)
  case windowCountDiffers(file: String, specFile: String, table: Int, spec: Int)
  case nonNumeric(text: String, at: String)
  case nonFinite(text: String, at: String)
  /// A number too large for a 32-bit float (`1e39`), as written.
  case beyondFloat(text: String, at: String)
  case emptyCell(at: String)
  case purityOutOfRange(value: Float, at: String)
  case purityBelowMinimum(value: Float, minimum: Float, at: String, specFile: String)
  /// A recording's rows come in two places while the table has no window column to order them.
  case recordingSplit(recording: String, at: String, earlier: String)
  /// A window column that does not number a recording's rows 0, 1, 2...
  case windowNumbering(recording: String, expected: Int, found: String, at: String)
  /// A spec whose feature spec is not the one its digest was computed from: edited by hand.
  case specEdited(file: String, stored: String, computed: String)
  /// A feature cell beyond `Limits.featureMagnitude`.
  case outOfRange(text: String, at: String, limit: Double)
  /// A window that starts `step` seconds after the one before it in its recording, where the
  /// spec's hop and rate put windows `hop` seconds apart (`dropsAllowed`: or more, since
  /// windows below the minimum purity were dropped).
  case windowTiming(
    recording: String, at: String, step: Double, hop: Double, dropsAllowed: Bool,
    specFile: String)

  public var description: String { message + " HINT: " + hint }

  public var message: String {
    switch self {
    case .unreadable(let file, let reason):
      return "\(file): cannot read the file (\(reason))."
    case .notText(let file, let encoding):
      return "\(file): the input looks like \(encoding), not UTF-8 text."
    case .badSpec(let file, let reason):
      return "\(file): not a usable window-table spec: \(reason)."
    case .noHeader(let file):
      return "\(file): the file is empty (no header line)."
    case .noRows(let file):
      return "\(file): the table has a header but no windows."
    case .duplicateColumn(let name, let file):
      return "\(file): column '\(Excerpt.text(name))' appears twice."
    case .missingColumn(let name, let file, let available):
      return "\(file): no column named '\(Excerpt.text(name))'; the header has "
        + Excerpt.list(available) + "."
    case .raggedRow(let at, let expected, let found):
      return "\(at): the row has \(found) fields, the header has \(expected)."
    case .unterminatedQuote(let at):
      return "\(at): a quoted field is never closed."
    case .featureColumnsDiffer(
      let file, let specFile, let position, let table, let spec, let tableCount, let specCount):
      let have = table.map { "'\(Excerpt.text($0))'" } ?? "no column"
      let want = spec.map { "'\(Excerpt.text($0))'" } ?? "no feature"
      return "\(file): feature column \(position) is \(have) where \(specFile) has \(want) "
        + "(the table has \(tableCount) feature columns, the spec \(specCount))."
    case .windowCountDiffers(let file, let specFile, let table, let spec):
      return "\(file) has \(table) windows, and \(specFile) was written with a table of \(spec)."
    case .nonNumeric(let text, let at):
      return "\(at): '\(Excerpt.text(text))' is not a number."
    case .nonFinite(let text, let at):
      return "\(at): '\(Excerpt.text(text))' is not a finite number."
    case .beyondFloat(let text, let at):
      return "\(at): '\(Excerpt.text(text))' is beyond ±3.4e38, the largest number a window "
        + "table holds (a 32-bit float)."
    case .emptyCell(let at):
      return "\(at): the cell is empty."
    case .purityOutOfRange(let value, let at):
      return "\(at): purity \(value) is outside 0...1."
    case .purityBelowMinimum(let value, let minimum, let at, let specFile):
      return "\(at): purity \(value) is below the minimum purity \(minimum) of \(specFile)."
    case .recordingSplit(let recording, let at, let earlier):
      return "\(at): recording '\(Excerpt.text(recording))' comes back after other recordings "
        + "(its rows began at \(earlier)), and the table has no window column to order them."
    case .windowNumbering(let recording, let expected, let found, let at):
      return "\(at): window \(Excerpt.text(found)) of recording '\(Excerpt.text(recording))', "
        + "where window \(expected) comes next."
    case .specEdited(let file, let stored, let computed):
      return "\(file): its featureSpec is not the one the table was written with (the spec's "
        + "featureSpecDigest is \(stored), its featureSpec gives \(computed)): it was edited "
        + "after `motus features` wrote it, and the table's features were not computed with it."
    case .outOfRange(let text, let at, let limit):
      return "\(at): feature \(Excerpt.text(text)) is beyond \(CSVError.format(limit)) in "
        + "magnitude, which no recording motus reads gives."
    case .windowTiming(let recording, let at, let step, let hop, let dropsAllowed, let specFile):
      let what =
        step == 0
        ? "the same start as the row before (a repeated row)"
        : step < 0
          ? "a start before the row before's"
          : "a start \(CSVError.format(step)) s after the row before"
      let spacing = "\(specFile)'s hop and rate start windows \(CSVError.format(hop)) s apart"
      let note =
        dropsAllowed
        ? " (or more, where impure windows were dropped)"
        : step > 1.5 * hop ? " (a window is missing, or the spec's rate or hop was edited)" : ""
      return "\(at): recording '\(Excerpt.text(recording))' has \(what), where \(spacing)\(note)."
    }
  }

  public var hint: String {
    switch self {
    case .unreadable: return "check the path and its permissions."
    case .notText(_, let encoding): return TextEncoding.hint(for: encoding)
    case .badSpec:
      return "pass the JSON that `motus features ... --spec-output FILE` wrote with this table."
    case .noHeader, .noRows:
      return "a window table is what `motus features DATA -o windows.csv` writes: a header "
        + "`session,subject,label,purity,start_s,<features>`, then one row per window."
    case .duplicateColumn:
      return "each column name appears once in a table `motus features` writes; rename one."
    case .missingColumn:
      return "a window table starts `session,subject,label,purity,start_s` (a cluster's, "
        + "`recording` first), then the feature columns."
    case .raggedRow:
      return "every row needs one field per header column; quote fields that contain commas."
    case .unterminatedQuote:
      return "close the quote, and double any quote inside a quoted field (\"\")."
    case .featureColumnsDiffer, .windowCountDiffers, .purityBelowMinimum:
      return "pass the spec written with this table (`motus features ... -o TABLE "
        + "--spec-output SPEC`), or write both again."
    case .nonNumeric, .nonFinite, .beyondFloat, .emptyCell:
      return "feature, purity and start_s cells hold finite decimal numbers, as `motus "
        + "features` writes them; session, subject and label name the window."
    case .purityOutOfRange:
      return "purity is the share of the window's samples that carry its label, in 0...1."
    case .recordingSplit:
      return "keep each recording's rows together and in motus's order, or add a `window` "
        + "column numbering each recording's windows from 0."
    case .windowNumbering:
      return "the window column numbers each recording's windows 0, 1, 2... in the order "
        + "`motus features` wrote them; check that no row is missing or repeated."
    case .specEdited:
      return "pass the spec as `motus features ... --spec-output SPEC` wrote it; to change the "
        + "window, hop, rate or channels, run `motus features` again with the new flags."
    case .outOfRange:
      return "feature cells hold what `motus features` computed; write the table again from "
        + "the recordings, and check the unit of any column scaled by hand."
    case .windowTiming:
      return "pass the spec written with this table (a hand-edited rate or hop moves every "
        + "window), and check that no row of a recording is missing or repeated (a lost "
        + "part, a table appended twice)."
    }
  }
}
