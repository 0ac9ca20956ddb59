// Why fitting refused its input; messages quote the bad value and suggest a fix.

import MotusData

/// Invalid training data or hyperparameters.
public enum TrainingError: Error, CustomStringConvertible, Equatable {
  case sampleCountMismatch(features: Int, labels: Int)
  case groupCountMismatch(rows: Int, groups: Int)
  /// The feature table's columns disagree with the feature spec's names.
  case featureCountMismatch(spec: Int, table: Int)
  case invalidHyperparameter(name: String, value: String, expected: String)
  case labelOutOfRange(row: Int, label: Int, classCount: Int)
  case nonFiniteFeature(row: Int, column: Int)
  case tooFewClasses(present: Int)
  case tooFewGroups(count: Int)
  /// No group could be held out for validation (each class is held by one group only), while
  /// calibration or an unknown threshold needs held-out windows.
  case noValidationWindows(groupCount: Int)
  case emptyTrainingSet
  case classWeightCount(given: Int, classCount: Int)
  case sampleWeightCount(given: Int, rows: Int)
  case invalidSampleWeight(row: Int, value: Float)
  /// No recording was long enough for one window, or every window was too impure.
  case noWindows(skippedRecordings: Int, droppedImpure: Int)
  /// The raw feature table set aside on disk during the fit could not be read back.
  case spilledTableUnreadable(directory: String, errno: Int32)

  public var description: String {
    switch self {
    case .sampleCountMismatch(let features, let labels):
      return "feature table has \(features) rows but there are \(labels) labels. "
        + "HINT: build labels and features from the same windows."
    case .groupCountMismatch(let rows, let groups):
      return "feature table has \(rows) rows but there are \(groups) group names. "
        + "HINT: pass one subject or session per row."
    case .featureCountMismatch(let spec, let table):
      return "the feature spec names \(spec) features but the table has \(table) columns. "
        + "HINT: build the table with FeatureExtractor(spec:) from the same spec."
    case .invalidHyperparameter(let name, let value, let expected):
      return
        "\(name) must be \(expected), got \(value). HINT: fix the '--\(flagName(name))' option."
    case .labelOutOfRange(let row, let label, let classCount):
      return "row \(row): label index \(label) is outside 0..<\(classCount). "
        + "HINT: label indices must index the class names."
    case .nonFiniteFeature(let row, let column):
      return "row \(row), feature column \(column) is NaN or infinite. "
        + "HINT: check the recording for gaps or invalid samples."
    case .tooFewClasses(let present):
      return "the training part has \(present) class(es); at least 2 are needed. "
        + "HINT: add recordings of other activities."
    case .tooFewGroups(let count):
      return "\(count) group(s) found; a validation split by group needs at least 2. "
        + "HINT: use '--validation-group session', add recordings from more subjects, or add "
        + "'--no-calibration' to train on every window without validation figures."
    case .noValidationWindows(let groupCount):
      return "no window can be held out for validation: each class is recorded by one subject "
        + "(or session) of the \(groupCount), and holding it out would leave the class "
        + "untrained, while calibration needs held-out windows. HINT: record each activity "
        + "twice (another person or session, with '--validation-group session'), or add "
        + "'--no-calibration' to train on every window without calibration or validation figures."
    case .emptyTrainingSet:
      return "no training rows. HINT: check the data paths and the window settings."
    case .classWeightCount(let given, let classCount):
      return "\(given) class weights given for \(classCount) classes. "
        + "HINT: give one weight per class, or use 'balanced'."
    case .sampleWeightCount(let given, let rows):
      return "\(given) sample weights given for \(rows) rows. "
        + "HINT: give one weight per row of the feature table."
    case .invalidSampleWeight(let row, let value):
      return "row \(row): sample weight \(value) is negative or not finite. "
        + "HINT: weights are finite and >= 0 (a manifest source's 'weight' is > 0)."
    case .noWindows(let skipped, let impure):
      return "no windows to train on (\(skipped) recordings shorter than one window, "
        + "\(impure) windows below the purity limit). "
        + "HINT: use a shorter --window, a lower --min-purity, or check the filters."
    case .spilledTableUnreadable(let directory, let errno):
      return "could not read back the feature table set aside in \(directory) "
        + "(\(InputFile.describe(errno)), errno \(errno)). "
        + "HINT: check the disk behind TMPDIR, or set TMPDIR to another folder."
    }
  }

  private func flagName(_ name: String) -> String {
    var out = ""
    for c in name {
      if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
    }
    return out
  }
}
