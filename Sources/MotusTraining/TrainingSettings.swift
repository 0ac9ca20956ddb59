// A model file's record of how it was fitted, typed. On disk it is text by flag-like name
// (`"l2Penalty": "1.0"`), the layout every model file has had: older files load, and the same
// training writes the same bytes. Fields are optional because a file records only the parts
// that ran (no solver for an MLP, no novelty settings without a detector). The shared
// hyperparameters are written and read through their table (`SharedHyperparameters.recorded`),
// not a field each. The inference side carries the text as it is
// (`TrainingMetadata.settingsText`); training writes and reads it here.

import MotusData
import MotusIngest
import MotusModels

/// How a model was trained, every default resolved (`TrainingMetadata.settings`).
@dynamicMemberLookup
public struct TrainingSettings: Codable, Sendable, Equatable {
  public var model: ModelFamily?
  /// Logistic only.
  public var solver: LogisticRegression.Solver?
  /// MLP only.
  public var hiddenLayerSizes: [Int]?
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
  /// The `SharedHyperparameters.recorded` entries, as text by key; read typed as
  /// `settings.l2Penalty` (nil when not recorded).
  private var hyperparameters: [String: String] = [:]

  public init() {}

  /// A shared hyperparameter as recorded (`settings.l2Penalty`), nil when the file has none;
  /// setting nil removes it.
  public subscript<Value>(dynamicMember path: WritableKeyPath<SharedHyperparameters, Value>)
    -> Value?
  {
    get {
      guard let entry = Self.entry(path), let text = hyperparameters[entry.key] else { return nil }
      var values = Self.blank
      return entry.parse(&values, text) ? values[keyPath: path] : nil
    }
    set {
      guard let entry = Self.entry(path) else { return }
      var values = Self.blank
      hyperparameters[entry.key] = newValue.map {
        values[keyPath: path] = $0
        return entry.format(values)
      }
    }
  }

  /// Records the entries of `shared` a fit by `model` uses (Adam's only for Adam).
  mutating func record(_ shared: SharedHyperparameters, fittedBy model: ModelChoice) {
    for entry in SharedHyperparameters.recorded where entry.isRecorded(for: model) {
      hyperparameters[entry.key] = entry.format(shared)
    }
  }

  private static func entry(_ path: PartialKeyPath<SharedHyperparameters>) -> Hyperparameter? {
    SharedHyperparameters.recorded.first { $0.path == path }
  }

  /// Scratch values that one entry is written into or read from.
  private static var blank: SharedHyperparameters {
    SharedHyperparameters(l2Penalty: 0, maxEpochs: 0, tolerance: 0)
  }

  /// The text form, by flag-like name: what the file stores and `motus model-info` prints.
  public var text: [String: String] {
    var text = unread.merging(hyperparameters) { _, recorded in recorded }
    for field in Self.fields {
      if let value = field.format(self) { text[field.key] = value }
    }
    return text
  }

  /// Reads the text form; an entry it cannot read back to the same text goes to `unread`.
  public init(text: [String: String]) {
    let byKey = Dictionary(uniqueKeysWithValues: Self.fields.map { ($0.key, $0) })
    let shared = Dictionary(
      uniqueKeysWithValues: SharedHyperparameters.recorded.map { ($0.key, $0) })
    for (key, value) in text {
      if let entry = shared[key] {
        var values = Self.blank
        if entry.parse(&values, value), entry.format(values) == value {
          hyperparameters[key] = value
        } else {
          unread[key] = value
        }
        continue
      }
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
      field("model", \.model), field("solver", \.solver),
      field(
        "hiddenLayerSizes", \.hiddenLayerSizes, write: { list($0) },
        read: Self.numbers),
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
  static func numbers<Value: LosslessStringConvertible>(_ text: String) -> [Value]? {
    guard let items = items(text) else { return nil }
    var values: [Value] = []
    for item in items {
      guard let value = Value(item) else { return nil }
      values.append(value)
    }
    return values
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
