// The model families a training run can fit; a model file records which one (`TrainingSettings`).

/// Which classifier is fitted.
public enum ModelFamily: String, Codable, Sendable, CaseIterable {
  /// Multinomial logistic regression (`LogisticRegression`).
  case logistic
  /// A ReLU multilayer perceptron (`MLPClassifier`).
  case mlp
}
