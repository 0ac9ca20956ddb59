// The typed view of a model file's training record: the file holds the text form
// (`TrainingMetadata.settingsText`), which `TrainingSettings` reads and writes unchanged.

import MotusModels

extension TrainingMetadata {
  /// How the model was fitted, typed; setting it rewrites `settingsText`.
  public var settings: TrainingSettings {
    get { TrainingSettings(text: settingsText) }
    set { settingsText = newValue.text }
  }
}
