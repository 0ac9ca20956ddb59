// The model file format, version 1, all integers and floats little-endian:
//
//   "MOTUSMDL" (8 bytes) | version: UInt32 | headerLength: UInt32 | JSON header (UTF-8, sorted
//   keys) | tensors: Float32, in the order and shapes the header's `tensors` lists
//
// Tensors are, per layer l (0-based): `layers.l.weight` [out, in], `layers.l.bias` [out].
// The header holds kind, classes, featureSpec, standardiser, temperature, cut-offs and metadata.

import Foundation
import MotusFeatures
import MotusLinearAlgebra

/// Reads and writes `.motus` model files.
///
///     try ModelFile.write(model, to: URL(fileURLWithPath: "walk.motus"))
///     let model = try ModelFile.read(from: URL(fileURLWithPath: "walk.motus"))
public enum ModelFile {
  public static let magic = Array("MOTUSMDL".utf8)
  public static let currentVersion: UInt32 = 1
  public static let supportedVersions: ClosedRange<UInt32> = 1...1

  struct TensorEntry: Codable, Equatable {
    var name: String
    var shape: [Int]
  }

  struct Header: Codable {
    var kind: String
    var classes: [String]
    var featureSpec: FeatureSpec
    var standardizer: Standardizer
    var temperature: Float
    var confidenceCutoffs: ConfidenceCutoffs
    var unknownThreshold: Float
    /// Absent when empty (files without negative classes keep their bytes).
    var negativeClasses: [String]?
    var negativeThreshold: Float?
    var novelty: NoveltyDetector?
    var metadata: TrainingMetadata
    var tensors: [TensorEntry]
  }

  /// The file's bytes; the same model always gives the same bytes.
  public static func encode(_ model: TrainedModel) throws -> Data {
    let layers = model.classifier.network.layers
    var tensors: [TensorEntry] = []
    for (l, layer) in layers.enumerated() {
      tensors.append(
        TensorEntry(name: "layers.\(l).weight", shape: [layer.outputCount, layer.inputCount]))
      tensors.append(TensorEntry(name: "layers.\(l).bias", shape: [layer.outputCount]))
    }
    let header = Header(
      kind: model.classifier.kind, classes: model.classes, featureSpec: model.featureSpec,
      standardizer: model.standardizer, temperature: model.temperature,
      confidenceCutoffs: model.confidenceCutoffs, unknownThreshold: model.unknownThreshold,
      negativeClasses: model.negativeClasses.isEmpty ? nil : model.negativeClasses,
      negativeThreshold: model.negativeClasses.isEmpty ? nil : model.negativeThreshold,
      novelty: model.novelty, metadata: model.metadata, tensors: tensors)
    let json = try makeEncoder().encode(header)
    var data = Data(magic)
    appendUInt32(&data, currentVersion)
    appendUInt32(&data, UInt32(json.count))
    data.append(json)
    for layer in layers {
      appendFloats(&data, layer.weight.values)
      appendFloats(&data, layer.bias)
    }
    return data
  }

  /// Writes atomically: a temporary file in the same directory, then `rename`, so a failed write
  /// leaves any previous file at `url` intact.
  public static func write(_ model: TrainedModel, to url: URL) throws {
    let file = url.path
    let data: Data
    do {
      data = try encode(model)
    } catch {
      throw ModelFileError.unwritable(file: file, reason: "cannot encode header: \(error)")
    }
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    do {
      try data.write(to: temporary)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw ModelFileError.unwritable(file: file, reason: "\(error.localizedDescription)")
    }
    if rename(temporary.path, url.path) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw ModelFileError.unwritable(file: file, reason: reason)
    }
  }

  /// Reads and checks a model file.
  public static func read(from url: URL) throws -> TrainedModel {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw ModelFileError.unreadable(file: url.path, reason: error.localizedDescription)
    }
    return try decode(data, file: url.path)
  }

  /// Parses file bytes; `file` names the source in errors.
  public static func decode(_ data: Data, file: String) throws -> TrainedModel {
    let bytes = [UInt8](data)
    if bytes.count < magic.count {
      if Array(magic.prefix(bytes.count)) != bytes { throw ModelFileError.badMagic(file: file) }
      throw ModelFileError.truncated(file: file, expected: 16, actual: bytes.count)
    }
    guard Array(bytes[0..<8]) == magic else { throw ModelFileError.badMagic(file: file) }
    guard bytes.count >= 16 else {
      throw ModelFileError.truncated(file: file, expected: 16, actual: bytes.count)
    }
    let version = readUInt32(bytes, at: 8)
    guard supportedVersions.contains(version) else {
      throw ModelFileError.unsupportedVersion(
        file: file, version: version, supported: supportedVersions)
    }
    let headerLength = Int(readUInt32(bytes, at: 12))
    guard bytes.count >= 16 + headerLength else {
      throw ModelFileError.truncated(file: file, expected: 16 + headerLength, actual: bytes.count)
    }
    let header: Header
    do {
      header = try makeDecoder().decode(Header.self, from: Data(bytes[16..<(16 + headerLength)]))
    } catch {
      throw ModelFileError.malformedHeader(file: file, reason: "\(error)")
    }
    let structure = try expectedShapes(header, file: file)
    guard header.tensors.map(\.name) == structure.map(\.name) else {
      throw ModelFileError.malformedHeader(
        file: file,
        reason: "tensors \(header.tensors.map(\.name)), expected \(structure.map(\.name))")
    }
    for (declared, expected) in zip(header.tensors, structure)
    where declared.shape != expected.shape {
      throw ModelFileError.shapeMismatch(
        file: file, tensor: declared.name, expected: expected.shape, actual: declared.shape)
    }
    let floatCount = structure.reduce(0) { $0 + $1.shape.reduce(1, *) }
    let end = 16 + headerLength + 4 * floatCount
    guard bytes.count >= end else {
      throw ModelFileError.truncated(file: file, expected: end, actual: bytes.count)
    }
    guard bytes.count == end else {
      throw ModelFileError.trailingBytes(file: file, count: bytes.count - end)
    }
    var offset = 16 + headerLength
    var layers: [Linear] = []
    for l in 0..<(structure.count / 2) {
      let shape = structure[2 * l].shape
      let weight = readFloats(bytes, at: &offset, count: shape[0] * shape[1])
      let bias = readFloats(bytes, at: &offset, count: shape[0])
      layers.append(
        Linear(
          weight: Matrix(rowCount: shape[0], columnCount: shape[1], values: weight), bias: bias))
    }
    let classifier: ModelClassifier
    if header.kind == "logistic" {
      classifier = .logistic(LogisticRegression(classes: header.classes, linear: layers[0]))
    } else {
      classifier = .mlp(
        MLPClassifier(
          classes: header.classes, hidden: Array(layers.dropLast()),
          output: layers[layers.count - 1]))
    }
    guard header.temperature > 0, header.temperature.isFinite,
      0 <= header.confidenceCutoffs.medium,
      header.confidenceCutoffs.medium <= header.confidenceCutoffs.high
    else {
      throw ModelFileError.malformedHeader(
        file: file, reason: "bad temperature or confidence cut-offs")
    }
    let negativeClasses = header.negativeClasses ?? []
    guard negativeClasses.allSatisfy(header.classes.contains),
      negativeClasses.count < header.classes.count
    else {
      throw ModelFileError.malformedHeader(
        file: file, reason: "negativeClasses \(negativeClasses) are not some of the classes")
    }
    let negativeThreshold = header.negativeThreshold ?? 0.5
    guard negativeThreshold > 0, negativeThreshold <= 1 else {
      throw ModelFileError.malformedHeader(
        file: file, reason: "negativeThreshold \(negativeThreshold) is not in (0, 1]")
    }
    if let novelty = header.novelty {
      let f = header.standardizer.mean.count
      guard novelty.mean.count == f, novelty.components.count == novelty.variances.count * f,
        novelty.variances.allSatisfy({ $0 > 0 && $0.isFinite }),
        novelty.residualVariance > 0, novelty.residualVariance.isFinite,
        !novelty.threshold.isNaN
      else {
        throw ModelFileError.malformedHeader(
          file: file, reason: "the novelty detector's shapes or variances are inconsistent")
      }
    }
    return TrainedModel(
      featureSpec: header.featureSpec, standardizer: header.standardizer, classifier: classifier,
      temperature: header.temperature, confidenceCutoffs: header.confidenceCutoffs,
      unknownThreshold: header.unknownThreshold, negativeClasses: negativeClasses,
      negativeThreshold: negativeThreshold, novelty: header.novelty, metadata: header.metadata)
  }

  /// The tensor list the header's kind, classes and standardiser imply, using the declared
  /// hidden widths (`layers.l.weight` first dimension) for an MLP.
  private static func expectedShapes(_ header: Header, file: String) throws -> [TensorEntry] {
    let f = header.standardizer.mean.count
    let k = header.classes.count
    guard header.standardizer.scale.count == f, header.standardizer.scale.allSatisfy({ $0 > 0 })
    else {
      throw ModelFileError.malformedHeader(file: file, reason: "standardizer mean/scale disagree")
    }
    guard k >= 1 else { throw ModelFileError.malformedHeader(file: file, reason: "no classes") }
    let specCount = header.featureSpec.featureNames.count
    guard specCount == f else {
      throw ModelFileError.shapeMismatch(
        file: file, tensor: "standardizer", expected: [specCount], actual: [f])
    }
    var widths: [Int]
    switch header.kind {
    case "logistic":
      widths = [f, k]
    case "mlp":
      let layerCount = header.tensors.count / 2
      guard (2...3).contains(layerCount) else {
        throw ModelFileError.malformedHeader(
          file: file, reason: "an MLP has 2 or 3 layers, got \(layerCount)")
      }
      widths = [f]
      for l in 0..<(layerCount - 1) {
        let shape = header.tensors[2 * l].shape
        guard shape.count == 2, shape[0] > 0 else {
          throw ModelFileError.shapeMismatch(
            file: file, tensor: header.tensors[2 * l].name, expected: [-1, widths[l]], actual: shape
          )
        }
        widths.append(shape[0])
      }
      widths.append(k)
    default:
      throw ModelFileError.malformedHeader(
        file: file, reason: "unknown model kind '\(header.kind)'")
    }
    var entries: [TensorEntry] = []
    for l in 0..<(widths.count - 1) {
      entries.append(TensorEntry(name: "layers.\(l).weight", shape: [widths[l + 1], widths[l]]))
      entries.append(TensorEntry(name: "layers.\(l).bias", shape: [widths[l + 1]]))
    }
    return entries
  }

  private static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
  }

  private static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }

  private static func appendUInt32(_ data: inout Data, _ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }

  private static func appendFloats(_ data: inout Data, _ values: [Float]) {
    var bytes = [UInt8]()
    bytes.reserveCapacity(values.count * 4)
    for v in values {
      let bits = v.bitPattern.littleEndian
      withUnsafeBytes(of: bits) { bytes.append(contentsOf: $0) }
    }
    data.append(contentsOf: bytes)
  }

  private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }

  private static func readFloats(_ bytes: [UInt8], at offset: inout Int, count: Int) -> [Float] {
    var out = [Float](repeating: 0, count: count)
    for i in 0..<count {
      out[i] = Float(bitPattern: readUInt32(bytes, at: offset))
      offset += 4
    }
    return out
  }
}
