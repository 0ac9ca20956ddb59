// The estimator a training run fits, carrying that estimator's own `Hyperparameters`: each
// family's defaults are written once, on its `Hyperparameters`, and nothing copies them.

import MotusModels

/// Which classifier a training run fits, and with what settings.
public enum ModelChoice: Codable, Equatable, Sendable {
  case logistic(LogisticRegression.Hyperparameters)
  case mlp(MLPClassifier.Hyperparameters)

  /// `family` with its estimator's defaults.
  public init(_ family: ModelFamily) {
    switch family {
    case .logistic: self = .logistic(.init())
    case .mlp: self = .mlp(.init())
    }
  }

  public var family: ModelFamily {
    switch self {
    case .logistic: .logistic
    case .mlp: .mlp
    }
  }

  /// The settings both estimators have; setting them keeps the family.
  public var shared: SharedHyperparameters {
    get {
      switch self {
      case .logistic(let h): h.shared
      case .mlp(let h): h.shared
      }
    }
    set {
      switch self {
      case .logistic(var h):
        h.shared = newValue
        self = .logistic(h)
      case .mlp(var h):
        h.shared = newValue
        self = .mlp(h)
      }
    }
  }

  /// Logistic regression's solver; `nil` for the MLP, which always uses Adam.
  public var solver: LogisticRegression.Solver? {
    if case .logistic(let h) = self { return h.solver }
    return nil
  }

  /// The MLP's hidden widths; `[]` for logistic regression.
  public var hiddenLayerSizes: [Int] {
    if case .mlp(let h) = self { return h.hiddenLayerSizes }
    return []
  }

  /// Fitted by mini-batch Adam (with its learning rate, batch size and patience).
  public var usesAdam: Bool { solver != .lbfgs }
}
