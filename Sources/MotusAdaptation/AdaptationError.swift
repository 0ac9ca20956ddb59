// Why a model cannot be adapted to the data given: each case names what is wrong and how to
// put it right, and nothing is written.

/// Bad input to `ModelAdapter`.
public enum AdaptationError: Error, Equatable, CustomStringConvertible {
  /// The data has labels that are none of the model's classes.
  case unknownLabels(labels: [String], classes: [String])
  /// A class has fewer windows than an adaptation needs.
  case tooFewWindows(label: String, count: Int, minimum: Int)
  /// No window at all: every recording is shorter than one window.
  case noWindows(windowSeconds: Double)
  /// The windows were made with another feature spec than the model's.
  case specMismatch(reason: String)
  /// The data's channels are not the ones the model's recipes make.
  case channelMismatch(data: [String], model: [String])
  /// A recording is at another rate than the model's.
  case sampleRateMismatch(source: String, session: String, recordingHz: Double, modelHz: Double)
  /// A window's feature is NaN or infinite.
  case nonFiniteFeature(source: String, session: String, startSeconds: Double)

  public var description: String {
    switch self {
    case .unknownLabels(let labels, let classes):
      return "labels \(labels.joined(separator: ", ")) are not classes of the model "
        + "(\(classes.joined(separator: ", "))). Hint: relabel them to one of the model's "
        + "classes (--map old=new), or leave them out (--labels)."
    case .tooFewWindows(let label, let count, let minimum):
      return "'\(label)' has \(count) windows; adapting needs at least \(minimum) per class it "
        + "shows. Hint: record more of it, or leave it out (--labels)."
    case .noWindows(let seconds):
      return "no window: every recording is shorter than the model's window of "
        + "\(formatted(seconds)) s. Hint: record longer stretches of each activity."
    case .specMismatch(let reason):
      return "the windows were not made with the model's feature spec: \(reason). Hint: make "
        + "them with the model's own spec (AdaptationWindows(dataset:model:))."
    case .channelMismatch(let data, let model):
      return "the data has channels \(data.joined(separator: ", ")), the model reads "
        + "\(model.joined(separator: ", ")). Hint: read the data with the model's recipes."
    case .sampleRateMismatch(let source, let session, let recordingHz, let modelHz):
      return "\(source): session '\(session)' is at \(formatted(recordingHz)) Hz, the model at "
        + "\(formatted(modelHz)) Hz. Hint: resample it to the model's rate "
        + "(motus adapt --sample-rate \(formatted(modelHz)))."
    case .nonFiniteFeature(let source, let session, let start):
      return "\(source): session '\(session)', window at \(formatted(start)) s has a NaN or "
        + "infinite feature. Hint: check the recording's values there."
    }
  }

  private func formatted(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
