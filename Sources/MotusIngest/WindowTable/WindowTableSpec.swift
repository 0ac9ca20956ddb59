// What a window table does not say itself: the feature recipe its columns were computed with
// (rate, window, hop, channel recipes, statistics, bands, floors), which a model stores so that
// inference rebuilds the same features. `motus features --spec-output` writes it beside the
// table; `motus train --windows TABLE --spec FILE` reads it back.

import Foundation
import MotusData
import MotusFeatures

/// The JSON file that travels with a window table.
///
///     {"featureSpec": {...}, "format": "motus-window-table", "formatVersion": 1,
///      "minimumPurity": 0, "motusVersion": "0.1.0", "windowCount": 6306}
public struct WindowTableSpec: Codable, Sendable, Equatable {
  /// Always `WindowTableSpec.formatName`: a file of another kind is refused by name.
  public var format: String
  public var formatVersion: Int
  /// The build that wrote the table (for the reader's information; not checked).
  public var motusVersion: String
  /// The recipe of every feature column, in column order (`featureSpec.featureNames`).
  public var featureSpec: FeatureSpec
  /// `--min-purity` of the run: no row of the table is less pure.
  public var minimumPurity: Float
  /// Rows the table was written with; nil for a table assembled elsewhere (a cluster's parts),
  /// whose rows are not counted in one place. When given, a table of another length (cut
  /// short, or joined with another) is refused.
  public var windowCount: Int?
  /// FNV-1a 64-bit digest (16 hex digits) of `featureSpec` as motus encodes it (sorted keys,
  /// packed), written with the table: a spec edited by hand afterwards (its window, hop, rate
  /// or a recipe's scale) no longer matches it and is refused, since the table's features were
  /// not computed with it. Nil in a spec written before it was added (not checked then).
  public var featureSpecDigest: String?

  public static let formatName = "motus-window-table"
  public static let supportedVersions: ClosedRange<Int> = 1...1

  public init(
    featureSpec: FeatureSpec, minimumPurity: Float, windowCount: Int?,
    motusVersion: String = MotusVersion.string
  ) {
    format = Self.formatName
    formatVersion = Self.supportedVersions.upperBound
    self.motusVersion = motusVersion
    self.featureSpec = featureSpec
    self.minimumPurity = minimumPurity
    self.windowCount = windowCount
    featureSpecDigest = Self.digest(of: featureSpec)
  }

  /// The digest `featureSpecDigest` holds for `spec`. Not cryptographic: it catches an edit,
  /// not a forgery.
  public static func digest(of spec: FeatureSpec) -> String? {
    guard let bytes = try? JSONEncoder.sortedKeys(prettyPrinted: false).encode(spec) else {
      return nil
    }
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Pretty-printed JSON with sorted keys and a final line end: the same spec, the same bytes.
  public func encoded() throws -> [UInt8] {
    Array(try JSONEncoder.sortedKeys(prettyPrinted: true).encode(self)) + [0x0A]
  }

  /// Reads and checks a spec file: its kind and version, then every field of the feature spec
  /// as a model file's (`FeatureSpec.validate`).
  ///
  /// - Throws: `WindowTableError.badSpec` naming the file (and the JSON's line and column for
  ///   a syntax error) with a hint; `.unreadable` when it cannot be read.
  public static func read(_ path: String) throws -> WindowTableSpec {
    let file = InputFile.displayName(path)
    var bytes: [UInt8]
    do {
      bytes = try InputFile.read(path)
    } catch let error as InputFileError {
      throw WindowTableError.unreadable(file: error.file, reason: error.reason)
    }
    // A UTF-8 byte-order mark (an editor's) is not part of the JSON.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    // A walker with a depth limit sees the JSON before the decoder does (no stack overflow).
    if let syntax = JSONLocator.syntaxError(in: bytes) {
      throw WindowTableError.badSpec(
        file: file, reason: "JSON at \(syntax.position): \(syntax.reason)")
    }
    let spec: WindowTableSpec
    do {
      spec = try JSONDecoder().decode(WindowTableSpec.self, from: Data(bytes))
    } catch {
      guard let kind = try? JSONDecoder().decode(Kind.self, from: Data(bytes)),
        kind.format == formatName
      else {
        throw WindowTableError.badSpec(
          file: file, reason: "it is not a window table's spec (no \"format\": \"\(formatName)\")")
      }
      throw WindowTableError.badSpec(file: file, reason: describe(error))
    }
    guard spec.format == formatName else {
      throw WindowTableError.badSpec(
        file: file, reason: "its format is '\(Excerpt.text(spec.format))', not '\(formatName)'")
    }
    guard supportedVersions.contains(spec.formatVersion) else {
      throw WindowTableError.badSpec(
        file: file,
        reason: "format version \(spec.formatVersion); this build reads \(supportedVersions)")
    }
    do {
      try spec.featureSpec.validate()
    } catch let error as FeatureSpecError {
      throw WindowTableError.badSpec(file: file, reason: "featureSpec: \(error)")
    }
    guard (0...1).contains(spec.minimumPurity) else {
      throw WindowTableError.badSpec(
        file: file, reason: "minimumPurity \(spec.minimumPurity) is outside 0...1")
    }
    if let count = spec.windowCount, count < 0 {
      throw WindowTableError.badSpec(file: file, reason: "windowCount \(count) is negative")
    }
    if let stored = spec.featureSpecDigest, let computed = digest(of: spec.featureSpec),
      stored != computed
    {
      throw WindowTableError.specEdited(file: file, stored: stored, computed: computed)
    }
    return spec
  }

  /// A decoding error in words: which key is missing or holds the wrong kind of value.
  static func describe(_ error: Error) -> String {
    guard let error = error as? DecodingError else { return Excerpt.text("\(error)", limit: 300) }
    func path(_ keys: [CodingKey]) -> String { JSONKeyPath.text(keys) }
    switch error {
    case .keyNotFound(let key, let context):
      let parent = path(context.codingPath)
      let full = parent == "(top)" ? key.stringValue : "\(parent).\(key.stringValue)"
      return "the key '\(Excerpt.text(full))' is missing"
    case .typeMismatch(let type, let context):
      return "'\(Excerpt.text(path(context.codingPath)))' should be \(words(type))"
    case .valueNotFound(let type, let context):
      return "'\(Excerpt.text(path(context.codingPath)))' is null where \(words(type)) is needed"
    case .dataCorrupted(let context):
      return "'\(Excerpt.text(path(context.codingPath)))': "
        + Excerpt.text(context.debugDescription, limit: 200)
    @unknown default:
      return Excerpt.text("\(error)", limit: 300)
    }
  }

  /// A Swift type as the JSON value it is read from.
  private static func words(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "text (a quoted string)"
    case is Bool.Type: return "true or false"
    case is Int.Type, is Int64.Type, is UInt.Type: return "a whole number"
    case is Double.Type, is Float.Type: return "a number"
    default:
      let name = "\(type)"
      if name.hasPrefix("Array") || name.hasPrefix("[") { return "a list ([...])" }
      if name.hasPrefix("Dictionary") { return "an object ({...})" }
      return "an object ({...}) of the kind `motus features --spec-output` writes"
    }
  }

  /// The one field that tells a spec file from any other JSON.
  private struct Kind: Decodable { var format: String? }
}
