// What training does with windows of negative labels; a model file records it.

/// What training does with windows of a dataset's negative labels (`Dataset.negativeLabels`).
public enum NegativeUse: String, Codable, Sendable, CaseIterable {
  /// Leave them out of the classifier.
  case ignore
  /// Learn them as one more class; the model answers `unknown` when it predicts it.
  case learnAsClass = "class"
}
