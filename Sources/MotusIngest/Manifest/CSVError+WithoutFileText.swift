// A CSV error told without any text of the file: for files the user did not name (a
// manifest's sources), whose content an error must not reveal.

import MotusData

extension CSVError {
  /// `description` without any text taken from the file (cells, header names, session, subject
  /// and label names): for files the user did not name, such as a manifest's sources, whose
  /// content an error must not reveal. The place (file, line, column) and the kind of problem
  /// stay; names the user gave (options, a manifest's patterns and labels) are still quoted.
  public var descriptionWithoutFileText: String {
    func place(_ at: CSVLocation) -> String { "\(at.file):\(at.line):\(at.column)" }
    let message: String
    switch self {
    case .missingColumn(let name, let option, let file, _):
      message = "\(file): no column named '\(Excerpt.text(name))' (\(option)) in its header."
    case .duplicateColumn(_, let at, let first):
      message = "\(place(at)): a column name appears twice (first as column \(first))."
    case .raggedRow(let at, let expected, let found):
      message = "\(place(at)): the row has \(found) fields, the header has \(expected)."
    case .unterminatedQuote(let at):
      message = "\(place(at)): a quoted field is never closed."
    case .nonNumeric(_, let at):
      message = "\(place(at)): the cell is not a number."
    case .nonFinite(_, let at):
      message = "\(place(at)): the cell is not a finite number."
    case .outOfRange(_, let at, let limit, let isTime):
      message = "\(place(at)): the value is beyond ±\(Self.format(limit)), the largest "
        + (isTime ? "time in seconds." : "channel value accepted.")
    case .emptyCell(let at):
      message = "\(place(at)): the cell is empty."
    case .timestampNotIncreasing(_, _, _, let at):
      message = "\(place(at)): the time does not increase within the row's session."
    case .subjectChanges(_, _, _, let at):
      message = "\(place(at)): the subject changes within the row's session."
    case .unknownLabelInMap(let label, _):
      message = "the label map names '\(Excerpt.text(label))', which is not in the data."
    case .unknownKeptLabel(let label, _):
      message = "'\(Excerpt.text(label))' is not in the data after mapping."
    case .noChannelMatches(let pattern, _):
      message = "the channel pattern '\(Excerpt.text(pattern))' matches no channel of the data."
    case .negateWithoutAcceleration:
      message = "acceleration is to be negated but no raw acceleration.* column is selected."
    case .channelUnavailable(let file, _):
      message = "\(file): a channel the first file provides is missing."
    default:
      message = self.message
    }
    return message + " HINT: " + hint
  }
}
