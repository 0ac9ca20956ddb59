// Why a model cannot be evaluated on a dataset; every message names the mismatch and a fix.

import MotusData

/// The data and the model do not fit together, or nothing is left to score.
public enum EvaluationError: Error, Equatable, CustomStringConvertible {
  /// Labels in the data that are not among the model's classes.
  case unknownLabels([String], modelClasses: [String])
  /// The loaded channels (or how they are computed) differ from the model's recipes.
  case channelMismatch(data: [ChannelDescription], model: [ChannelDescription])
  /// No recording is long enough for one window, or every window was too impure.
  case noWindows(skippedRecordings: Int, droppedImpure: Int, windowSeconds: Double)
  /// `--timeline-session` names no evaluated session.
  case unknownSession(String, available: [String])
  /// Cross-validation: fewer groups than folds, or too few folds.
  case invalidFoldCount(folds: Int, groups: Int)
  /// Cross-validation: a test fold holds labels its training folds never saw.
  case foldLacksClasses(fold: Int, labels: [String])
  /// The model gave NaN or infinite probabilities for a window (by session and start time).
  case nonFiniteProbabilities(session: String, startSeconds: Double)

  /// A recipe in words, `name = operation(inputs) * scale`, for messages.
  public struct ChannelDescription: Equatable, Sendable, CustomStringConvertible {
    public var text: String
    public init(_ text: String) { self.text = text }
    public var description: String { text }
  }

  public var description: String {
    switch self {
    case .unknownLabels(let labels, let classes):
      return "the data has label(s) the model does not know: \(Excerpt.list(labels)) "
        + "(model classes: \(Excerpt.list(classes))). HINT: rename them with --map "
        + "(e.g. --map \(Excerpt.text(labels[0]))=\(classes.first ?? "class")) or keep only "
        + "known labels with --labels \(classes.joined(separator: ","))."
    case .channelMismatch(let data, let model):
      let missing = model.filter { !data.contains($0) }
      let extra = data.filter { !model.contains($0) }
      var detail = ""
      if !missing.isEmpty {
        detail += " model needs: \(missing.map(\.text).joined(separator: "; "))."
      }
      if !extra.isEmpty {
        detail += " data gave: \(extra.map(\.text).joined(separator: "; "))."
      }
      if missing.isEmpty && extra.isEmpty { detail = " the channel order differs." }
      let names = { (list: [ChannelDescription]) in
        Set(list.map { $0.text.prefix { $0 != " " } })
      }
      let hint =
        names(data) == names(model) && data.count == model.count
        ? "the channels differ only in how they are computed: use --negate-acceleration "
          + "exactly when training did (Android-sign data)."
        : "evaluate data that has the raw columns the model reads, loaded the same way as for "
          + "training (the same --manifest, or plain CSV files: channels come from the model)."
      return "the data's channels do not match the model's:" + detail + " HINT: " + hint
    case .noWindows(let skipped, let impure, let seconds):
      return "no windows to evaluate (\(skipped) recording(s) shorter than the model's "
        + "\(seconds)-second window, \(impure) window(s) below the purity limit). "
        + "HINT: evaluate longer recordings, lower --min-purity, or check the filters."
    case .unknownSession(let name, let available):
      let shown = Excerpt.list(available, limit: 8)
      return "no evaluated session is named '\(Excerpt.text(name))' (sessions: \(shown)). "
        + "HINT: pass one of them to --timeline-session."
    case .invalidFoldCount(let folds, let groups):
      return "cannot make \(folds) folds from \(groups) group(s): need 2 <= folds <= groups. "
        + "HINT: lower --folds, or use --group session for more groups."
    case .nonFiniteProbabilities(let session, let start):
      return "the model gave NaN or infinite probabilities for the window at \(start) s in "
        + "session '\(Excerpt.text(session))'. HINT: the window's features are beyond what "
        + "the model was trained on; check that recording's values near that time, and the "
        + "model file (`motus model-info`)."
    case .foldLacksClasses(let fold, let labels):
      return "fold \(fold + 1): its test part has label(s) \(labels.joined(separator: ", ")) "
        + "that no training group has. HINT: use fewer --folds, or drop rare labels with "
        + "--labels."
    }
  }
}

extension ChannelRecipe {
  /// `name = operation(inputs) * scale`, as error messages show it.
  var evaluationDescription: EvaluationError.ChannelDescription {
    var text = "\(name) = \(operation.rawValue)(\(inputs.joined(separator: ", ")))"
    if scale != 1 { text += " * \(scale)" }
    return EvaluationError.ChannelDescription(text)
  }
}
