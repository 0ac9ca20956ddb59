// Everything that can be wrong with labelled CSV input. Each case names where (file, 1-based
// line and column when there is one) and its description ends with a "HINT: ..." line.

/// Where in a CSV file a problem was found. `line` and `column` are 1-based; the header is
/// line 1 and the column is the field index, not a byte offset.
public struct CSVLocation: Sendable, Equatable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int
  /// The header name of `column`, when known.
  public var columnName: String?

  public init(file: String, line: Int, column: Int, columnName: String? = nil) {
    self.file = file
    self.line = line
    self.column = column
    self.columnName = columnName
  }

  public var description: String {
    let name = columnName.map { " ('\(Excerpt.text($0))')" } ?? ""
    return "\(file):\(line):\(column)\(name)"
  }
}

/// Bad CSV input or load options that do not fit the data.
public enum CSVError: Error, Equatable, CustomStringConvertible {
  case noFiles
  case noCSVFiles(folder: String)
  case unreadable(file: String, reason: String)
  /// One file named twice (two paths, a link, a folder and a file in it): `first` and `again`
  /// say how (`'d/a.csv' (in 'd')`).
  case sameFileTwice(first: String, again: String)
  /// A CSV file and its gzip copy side by side (`x.csv` and `x.csv.gz`, what `gzip -k`
  /// leaves), named as in `sameFileTwice`: one recording, read twice.
  case compressedTwin(first: String, again: String)
  case emptyFile(file: String)
  case noDataRows(file: String)
  case missingColumn(name: String, option: String, file: String, available: [String])
  case duplicateColumn(name: String, at: CSVLocation, firstColumn: Int)
  case raggedRow(at: CSVLocation, expected: Int, found: Int)
  case unterminatedQuote(at: CSVLocation)
  case nonNumeric(text: String, at: CSVLocation)
  case nonFinite(text: String, at: CSVLocation)
  /// A finite number beyond `Limits.channelMagnitude` (or `timeMagnitude` for the time).
  case outOfRange(text: String, at: CSVLocation, limit: Double, isTime: Bool)
  /// The input is UTF-16, UTF-32 or binary rather than UTF-8 text (`TextEncoding.problem`).
  case notText(file: String, encoding: String)
  /// The header has more than `limit` columns.
  case tooManyColumns(file: String, limit: Int)
  case emptyCell(at: CSVLocation)
  case timestampNotIncreasing(session: String, previous: Double, current: Double, at: CSVLocation)
  case subjectChanges(session: String, first: String, now: String, at: CSVLocation)
  case unknownLabelInMap(label: String, present: [String])
  case unknownKeptLabel(label: String, present: [String])
  case noChannelMatches(pattern: String, available: [String])
  case noChannels(file: String)
  case negateWithoutAcceleration(available: [String])
  case channelUnavailable(file: String, reason: String)
  case nothingLeft(reasons: [String])

  /// Why the number parsed from a cell's `text` cannot be used, or nil when it is finite and
  /// within `limit`: the one rule of batch loading and the stream. A numeral too large for a
  /// Double (`1e400`, read as infinity) is out of range like `1e30`; only `nan` and `inf`
  /// written as such are not finite numbers.
  public static func unusable(
    _ value: Double, text: String, at location: CSVLocation, limit: Double, isTime: Bool
  ) -> CSVError? {
    if abs(value) <= limit { return nil }
    if value.isNaN || (value.isInfinite && !text.contains(where: \.isNumber)) {
      return .nonFinite(text: text, at: location)
    }
    return .outOfRange(text: text, at: location, limit: limit, isTime: isTime)
  }

  /// The file the problem is in, when it is about one file.
  public var file: String? {
    switch self {
    case .unreadable(let f, _), .emptyFile(let f), .noDataRows(let f), .noChannels(let f),
      .channelUnavailable(let f, _), .notText(let f, _), .tooManyColumns(let f, _):
      return f
    case .missingColumn(_, _, let f, _): return f
    default: return location?.file
    }
  }

  /// File, line and column, when the problem is in one cell or row.
  public var location: CSVLocation? {
    switch self {
    case .duplicateColumn(_, let at, _), .raggedRow(let at, _, _), .unterminatedQuote(let at),
      .nonNumeric(_, let at), .nonFinite(_, let at), .outOfRange(_, let at, _, _),
      .emptyCell(let at),
      .timestampNotIncreasing(_, _, _, let at), .subjectChanges(_, _, _, let at):
      return at
    default: return nil
    }
  }

  /// What to do about a CSV file beside its gzip copy (`compressedTwin`).
  public static let compressedTwinHint =
    "remove one of the two (keep either x.csv or x.csv.gz, not both; `gzip x.csv` without -k "
    + "leaves only the copy), or move it out of the folder."

  public var line: Int? { location?.line }
  public var column: Int? { location?.column }

  /// Problem statement without the hint.
  public var message: String {
    switch self {
    case .noFiles:
      return "no input files were given."
    case .noCSVFiles(let folder):
      return "\(folder): the folder holds no .csv or .csv.gz files."
    case .unreadable(let file, let reason):
      return "\(file): cannot read the file (\(reason))."
    case .sameFileTwice(let first, let again):
      return "\(first) and \(again) are one file (the same device and inode): it would be "
        + "read, and its rows counted, twice."
    case .compressedTwin(let first, let again):
      return "\(first) and \(again) are one CSV file and its gzip copy (what `gzip -k` leaves): "
        + "both would be read, and the rows counted twice (a held-out session would have an "
        + "exact copy in training)."
    case .emptyFile(let file):
      return "\(file): the file is empty (no header line)."
    case .noDataRows(let file):
      return "\(file): the file has a header but no data rows."
    case .missingColumn(let name, let option, let file, let available):
      return "\(file): no column named '\(Excerpt.text(name))' (\(option)); the header has "
        + Excerpt.list(available) + "."
    case .duplicateColumn(let name, let at, let first):
      return "\(at): column '\(Excerpt.text(name))' appears twice (first as column \(first))."
    case .raggedRow(let at, let expected, let found):
      return "\(at): the row has \(found) fields, the header has \(expected)."
    case .unterminatedQuote(let at):
      return "\(at): a quoted field is never closed."
    case .nonNumeric(let text, let at):
      return "\(at): '\(Excerpt.text(text))' is not a number."
    case .nonFinite(let text, let at):
      return "\(at): '\(Excerpt.text(text))' is not a finite number."
    case .outOfRange(let text, let at, let limit, let isTime):
      return "\(at): \(Excerpt.text(text)) is beyond ±\(Self.format(limit)), the largest "
        + (isTime ? "time in seconds (Unix time in the year 2286)." : "channel value accepted.")
    case .notText(let file, let encoding):
      return "\(file): the input looks like \(encoding), not UTF-8 text."
    case .tooManyColumns(let file, let limit):
      return "\(file): the header has more than \(limit) columns."
    case .emptyCell(let at):
      return "\(at): the cell is empty."
    case .timestampNotIncreasing(let session, let previous, let current, let at):
      return "\(at): in session '\(Excerpt.text(session))' the time goes from \(previous) to "
        + "\(current); "
        + "timestamps must increase within a session."
    case .subjectChanges(let session, let first, let now, let at):
      return "\(at): session '\(Excerpt.text(session))' started with subject "
        + "'\(Excerpt.text(first))' but this row says '\(Excerpt.text(now))'."
    case .unknownLabelInMap(let label, let present):
      return "--map names label '\(Excerpt.text(label))', which is not in the data; labels "
        + "present: " + Excerpt.list(present) + "."
    case .unknownKeptLabel(let label, let present):
      return "--labels names '\(Excerpt.text(label))', which is not in the data after mapping; "
        + "labels: " + Excerpt.list(present) + "."
    case .noChannelMatches(let pattern, let available):
      return "--channels pattern '\(Excerpt.text(pattern))' matches no channel; channels "
        + "available: " + Excerpt.list(available) + "."
    case .noChannels(let file):
      return "\(file): the file has no numeric channel columns."
    case .negateWithoutAcceleration(let available):
      return "--negate-acceleration was given but no raw acceleration.* column is selected "
        + "(channels: \(Excerpt.list(available)))."
    case .channelUnavailable(let file, let reason):
      return "\(file): \(reason)"
    case .nothingLeft(let reasons):
      return "no recordings are left after loading: " + reasons.joined(separator: "; ") + "."
    }
  }

  /// What to do about it.
  public var hint: String {
    switch self {
    case .noFiles:
      return "pass one or more CSV files or folders of CSV files."
    case .noCSVFiles:
      return "files ending in .csv or .csv.gz are read from the folder and its subfolders (four "
        + "levels down; hidden ones are left out)."
    case .unreadable:
      return "check the path and its permissions."
    case .sameFileTwice:
      return "give each file once; a folder already reads every .csv file in it (an app "
        + "export folder its sensor files)."
    case .compressedTwin:
      return Self.compressedTwinHint
    case .emptyFile, .noDataRows:
      return "expected a header `timestamp,session,subject,label,<channels>` then one row "
        + "per sample (see ../shared/datasets/README.md)."
    case .missingColumn(_, let option, _, _):
      return "name the column with \(option), or fix the header"
        + (option == "--time-column" ? "; Motus reads " + AppExportLayout.knownLayoutNames + "." : ".")
    case .duplicateColumn:
      return "rename one of the columns so each header name is unique."
    case .raggedRow:
      return "every row needs one field per header column; quote fields that contain commas."
    case .unterminatedQuote:
      return "close the quote, and double any quote inside a quoted field (\"\")."
    case .nonNumeric:
      return "channel and time cells must be decimal numbers; leave a cell empty to mark a "
        + "missing value."
    case .nonFinite:
      return "NaN and infinity are not allowed; leave the cell empty to mark a missing value "
        + "(it is interpolated and counted)."
    case .outOfRange(_, _, _, let isTime):
      return isTime
        ? "give times in seconds (divide milliseconds by 1000, nanoseconds by 1e9)."
        : "check the cell; a column that is not a sensor channel (a clock, a counter) can be "
          + "left out with --channels."
    case .notText(_, let encoding):
      return TextEncoding.hint(for: encoding)
    case .tooManyColumns:
      return "a sensor log has a time column and a few dozen channels; check the separator "
        + "(commas) and that the first line is the header."
    case .emptyCell:
      return "the time cell must hold the sample time in seconds."
    case .timestampNotIncreasing:
      return "sort the rows by session then time, or give each continuous recording its own "
        + "session name (--session-column)."
    case .subjectChanges:
      return "one session belongs to one subject; check --session-column and --subject-column."
    case .unknownLabelInMap, .unknownKeptLabel:
      return "check the spelling against the labels listed (names are case-sensitive)."
    case .noChannelMatches:
      return "patterns are comma-separated names or globs such as `userAcceleration.*`; "
        + "derived: acceleration.* (gravity + userAcceleration), |name| magnitudes."
    case .noChannels:
      return "channel columns hold numbers; select them with --channels."
    case .negateWithoutAcceleration:
      return "only raw acceleration.* columns (Android sign) are negated; drop the flag or "
        + "select acceleration.* channels."
    case .channelUnavailable:
      return "all files loaded together need the channels the first file provides."
    case .nothingLeft:
      return "check --subjects, --exclude-subjects, --labels and --gap-factor."
    }
  }

  public var description: String { message + " HINT: " + hint }

  /// `1e7` for a power of ten from 1e4 up, else the shortest decimal.
  package static func format(_ x: Double) -> String {
    var mantissa = x
    var exponent = 0
    while mantissa >= 10 && mantissa.truncatingRemainder(dividingBy: 10) == 0 {
      mantissa /= 10
      exponent += 1
    }
    if mantissa == 1 && exponent >= 4 { return "1e\(exponent)" }
    return x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(x)"
  }
}
