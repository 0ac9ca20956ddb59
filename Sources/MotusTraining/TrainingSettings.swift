// A model file's record of how it was fitted, typed. On disk it is text by flag-like name
// (`"l2Penalty": "1.0"`), the layout every model file has had: older files load, and the same
// training writes the same bytes. Fields are optional because a file records only the parts
// that ran (no solver for an MLP, no novelty settings without a detector). The inference side
// carries the text as it is (`TrainingMetadata.settingsText`); training writes and reads it here.

import MotusData
import MotusIngest
import MotusModels

/// How a model was trained, every default resolved (`TrainingMetadata.settings`).
public struct TrainingSettings: Codable, Sendable, Equatable {
  public var model: ModelFamily?
  /// Logistic only.
  public var solver: LogisticRegression.Solver?
  public var l2Penalty: Float?
  /// Adam epochs or L-BFGS iterations at most.
  public var maxEpochs: Int?
  public var tolerance: Float?
  /// Adam only (the MLP, or logistic with the Adam solver), as are `batchSize` and `patience`.
  public var learningRate: Float?
  public var batchSize: Int?
  public var patience: Int?
  /// MLP only.
  public var hiddenLayerSizes: [Int]?
  public var classWeighting: ClassWeighting?
  /// Share of rows (whole groups) held out for early stopping and calibration.
  public var validationFraction: Double?
  public var refit: Bool?
  /// Epochs (or iterations) of the refit on every row.
  public var refitEpochs: Int?
  public var calibrate: Bool?
  public var augmentation: Augmentation?
  /// With negative classes only, as is `negativeRate`.
  public var negatives: NegativeUse?
  public var negativeRate: Double?
  /// With a novelty detector only, as is `noveltyRate`.
  public var noveltyComponents: Int?
  public var noveltyRate: Double?
  /// Loss weight per manifest source, when one is not 1: the manifest's weights times
  /// `sourceBalance`'s, as the fit used them.
  public var sourceWeights: [String: Double]?
  /// How sources were balanced (recorded when not `.none`).
  public var sourceBalance: SourceBalance?
  /// Entries this build does not read (a newer build's, or a value in another form), kept
  /// as written so that reading and writing a file changes nothing.
  public var unread: [String: String] = [:]

  public init() {}

  /// The text form, by flag-like name: what the file stores and `motus model-info` prints.
  public var text: [String: String] {
    var text = unread
    for field in Self.fields {
      if let value = field.format(self) { text[field.key] = value }
    }
    return text
  }

  /// Reads the text form; an entry it cannot read back to the same text goes to `unread`.
  public init(text: [String: String]) {
    let byKey = Dictionary(uniqueKeysWithValues: Self.fields.map { ($0.key, $0) })
    for (key, value) in text {
      guard let field = byKey[key] else {
        unread[key] = value
        continue
      }
      var candidate = self
      field.parse(&candidate, value)
      if field.format(candidate) == value { self = candidate } else { unread[key] = value }
    }
  }

  public init(from decoder: Decoder) throws {
    self.init(text: try [String: String](from: decoder))
  }

  public func encode(to encoder: Encoder) throws {
    try text.encode(to: encoder)
  }

  // MARK: Text form

  /// One entry: its key, how the value is written, and how it is read (nil when it is not).
  private struct Field {
    var key: String
    var format: (TrainingSettings) -> String?
    var parse: (inout TrainingSettings, String) -> Void
  }

  private static func field<Value>(
    _ key: String, _ path: WritableKeyPath<TrainingSettings, Value?>,
    write: @escaping (Value) -> String, read: @escaping (String) -> Value?
  ) -> Field {
    Field(
      key: key, format: { $0[keyPath: path].map(write) },
      parse: { settings, text in settings[keyPath: path] = read(text) })
  }

  private static func field<Value: LosslessStringConvertible>(
    _ key: String, _ path: WritableKeyPath<TrainingSettings, Value?>
  ) -> Field {
    field(key, path, write: { "\($0)" }, read: Value.init)
  }

  private static func field<Value: RawRepresentable<String>>(
    _ key: String, _ path: WritableKeyPath<TrainingSettings, Value?>
  ) -> Field {
    field(key, path, write: \.rawValue, read: Value.init(rawValue:))
  }

  private static var fields: [Field] {
    [
      field("model", \.model), field("solver", \.solver), field("l2Penalty", \.l2Penalty),
      field("maxEpochs", \.maxEpochs), field("tolerance", \.tolerance),
      field("learningRate", \.learningRate), field("batchSize", \.batchSize),
      field("patience", \.patience),
      field(
        "hiddenLayerSizes", \.hiddenLayerSizes, write: { list($0) },
        read: Self.numbers),
      field(
        "classWeighting", \.classWeighting, write: Self.write(_:), read: Self.readWeighting),
      field("validationFraction", \.validationFraction), field("refit", \.refit),
      field("refitEpochs", \.refitEpochs), field("calibrate", \.calibrate),
      field(
        "augmentation", \.augmentation,
        write: { "copies=\($0.copies),\($0.perturbation)" }, read: Self.readAugmentation),
      field("negatives", \.negatives), field("negativeRate", \.negativeRate),
      field("noveltyComponents", \.noveltyComponents), field("noveltyRate", \.noveltyRate),
      field(
        "sourceWeights", \.sourceWeights,
        write: {
          $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        },
        read: Self.readSourceWeights),
      field("sourceBalance", \.sourceBalance),
    ]
  }

  private static func list<Value>(_ values: [Value]) -> String {
    values.map { "\($0)" }.joined(separator: ",")
  }

  private static func items(_ text: String) -> [String]? {
    text.isEmpty
      ? nil : text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  }

  /// Comma-separated numbers, or nil when one is not a number.
  private static func numbers<Value: LosslessStringConvertible>(_ text: String) -> [Value]? {
    guard let items = items(text) else { return nil }
    var values: [Value] = []
    for item in items {
      guard let value = Value(item) else { return nil }
      values.append(value)
    }
    return values
  }

  private static func write(_ weighting: ClassWeighting) -> String {
    switch weighting {
    case .none: return "none"
    case .balanced: return "balanced"
    case .given(let weights): return list(weights)
    }
  }

  private static func readWeighting(_ text: String) -> ClassWeighting? {
    switch text {
    case "none": return ClassWeighting.none
    case "balanced": return .balanced
    default: return numbers(text).map { .given($0) }
    }
  }

  private static func readAugmentation(_ text: String) -> Augmentation? {
    guard text.hasPrefix("copies="), let comma = text.firstIndex(of: ",") else { return nil }
    guard let copies = Int(text[text.index(text.startIndex, offsetBy: 7)..<comma]),
      let perturbation = try? DevicePerturbation(parsing: String(text[text.index(after: comma)...]))
    else { return nil }
    return Augmentation(copies: copies, perturbation: perturbation)
  }

  private static func readSourceWeights(_ text: String) -> [String: Double]? {
    var weights: [String: Double] = [:]
    for item in items(text) ?? [] {
      guard let equals = item.lastIndex(of: "="),
        let weight = Double(item[item.index(after: equals)...])
      else { return nil }
      weights[String(item[..<equals])] = weight
    }
    return weights.isEmpty ? nil : weights
  }
}
