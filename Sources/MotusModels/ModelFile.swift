// The model file format, version 2, all integers and floats little-endian:
//
//   "MOTUSMDL" (8 bytes) | version: UInt32 | headerLength: UInt32 | JSON header (UTF-8, sorted
//   keys) | tensors: Float32, in the order and shapes the header's `tensors` lists |
//   checksum: UInt32, the CRC-32 of every byte before it
//
// Version 1 is the same without the checksum; it still loads. Every header value is checked
// before anything is allocated from it (ModelFile+Validation.swift).
//
// Tensors are, per layer l (0-based): `layers.l.weight` [out, in], `layers.l.bias` [out].
// The header holds kind, classes, featureSpec, standardiser, temperature, cut-offs, metadata
// and, optionally, the novelty detector and the class statistics.

import Foundation
import MotusData
import MotusFeatures
import MotusLinearAlgebra

/// Encodes and reads `.motus` model files; writing one to disk is the trainer's
/// (`ModelFile.write` in MotusTraining), so the inference path carries no output machinery.
///
///     let bytes = try ModelFile.encode(model)
///     let model = try ModelFile.read(from: URL(fileURLWithPath: "walk.motus"))
public enum ModelFile {
  public static let magic = Array("MOTUSMDL".utf8)
  public static let currentVersion: UInt32 = 2
  public static let supportedVersions: ClosedRange<UInt32> = 1...2

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
    /// Absent in files written before it, or without it.
    var classStatistics: ClassStatistics?
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
      novelty: model.novelty, classStatistics: model.classStatistics, metadata: model.metadata,
      tensors: tensors)
    let json = try JSONEncoder.sortedKeys(prettyPrinted: false).encode(header)
    var data = Data(magic)
    appendUInt32(&data, currentVersion)
    appendUInt32(&data, UInt32(json.count))
    data.append(json)
    for layer in layers {
      appendFloats(&data, layer.weight.values)
      appendFloats(&data, layer.bias)
    }
    appendUInt32(&data, CRC32.checksum([UInt8](data)[...]))
    return data
  }

  /// Reads and checks a model file (a path, a pipe or `-`).
  public static func read(from url: URL) throws -> TrainedModel {
    try read(path: url.path)
  }

  /// Reads and checks a model file at `path` (`-` reads standard input).
  public static func read(path: String) throws -> TrainedModel {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(path, limit: maximumFileBytes)
    } catch let error as InputFileError {
      throw ModelFileError.unreadable(file: error.file, reason: error.reason)
    }
    return try decode(Data(bytes), file: InputFile.displayName(path))
  }

  /// Parses file bytes; `file` names the source in errors.
  public static func decode(_ data: Data, file: String) throws -> TrainedModel {
    let bytes = [UInt8](data)
    let (version, headerLength) = try readPreamble(bytes, file: file)
    let header = try readHeader(bytes, version: version, headerLength: headerLength, file: file)
    try validate(header, file: file)
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
    guard let floatCount = checkedFloatCount(structure),
      let end = expectedByteCount(
        headerLength: headerLength, floatCount: floatCount, version: version)
    else {
      throw ModelFileError.malformedHeader(file: file, reason: "tensor sizes overflow")
    }
    guard bytes.count >= end else {
      throw ModelFileError.truncated(file: file, expected: end, actual: bytes.count)
    }
    guard bytes.count == end else {
      throw ModelFileError.trailingBytes(file: file, count: bytes.count - end)
    }
    let layers = try readLayers(bytes, at: 16 + headerLength, structure: structure, file: file)
    let classifier: ModelClassifier
    if header.kind == "logistic" {
      classifier = .logistic(LogisticRegression(classes: header.classes, linear: layers[0]))
    } else {
      classifier = .mlp(
        MLPClassifier(
          classes: header.classes, hidden: Array(layers.dropLast()),
          output: layers[layers.count - 1]))
    }
    if let statistics = header.classStatistics,
      !statistics.fits(classCount: header.classes.count, inputCount: layers.last!.inputCount)
    {
      throw ModelFileError.malformedHeader(
        file: file,
        reason: "classStatistics must hold \(header.classes.count) rows of "
          + "\(layers.last!.inputCount) finite values (standard deviations ≥ 0)")
    }
    return TrainedModel(
      featureSpec: header.featureSpec, standardizer: header.standardizer, classifier: classifier,
      temperature: header.temperature, confidenceCutoffs: header.confidenceCutoffs,
      unknownThreshold: header.unknownThreshold, negativeClasses: header.negativeClasses ?? [],
      negativeThreshold: header.negativeThreshold ?? 0.5, novelty: header.novelty,
      classStatistics: header.classStatistics, metadata: header.metadata)
  }

  /// Magic, a supported version and a header length the file is long enough for.
  /// The format version of a model file's bytes, from its preamble.
  ///
  /// - Throws: `ModelFileError` when the bytes are not a model file of a supported version.
  public static func formatVersion(of data: Data, file: String) throws -> UInt32 {
    try readPreamble([UInt8](data), file: file).version
  }

  private static func readPreamble(_ bytes: [UInt8], file: String) throws
    -> (version: UInt32, headerLength: Int)
  {
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
    let trailer = version >= 2 ? 4 : 0
    guard bytes.count >= 16 + headerLength + trailer else {
      throw ModelFileError.truncated(
        file: file, expected: 16 + headerLength + trailer, actual: bytes.count)
    }
    return (version, headerLength)
  }

  /// The JSON header, decoded, with the checksum (version 2) verified.
  private static func readHeader(
    _ bytes: [UInt8], version: UInt32, headerLength: Int, file: String
  ) throws -> Header {
    let trailer = version >= 2 ? 4 : 0
    let header: Header
    do {
      let json = Array(bytes[16..<(16 + headerLength)])
      if let place = JSONNesting.tooDeep(json) {
        throw ModelFileError.malformedHeader(
          file: file,
          reason: "header JSON at \(place): nested more than \(JSONNesting.maximumDepth) levels deep")
      }
      header = try makeDecoder().decode(Header.self, from: Data(json))
    } catch {
      if trailer > 0, !checksumMatches(bytes) { throw ModelFileError.checksumMismatch(file: file) }
      if let error = error as? ModelFileError { throw error }
      throw ModelFileError.malformedHeader(file: file, reason: Excerpt.text("\(error)", limit: 300))
    }
    if trailer > 0, !checksumMatches(bytes) {
      // Say what is wrong when the size shows it; otherwise a byte changed.
      if let floats = checkedFloatCount(header.tensors),
        let expected = expectedByteCount(
          headerLength: headerLength, floatCount: floats, version: version),
        expected != bytes.count
      {
        if bytes.count < expected {
          throw ModelFileError.truncated(file: file, expected: expected, actual: bytes.count)
        }
        throw ModelFileError.trailingBytes(file: file, count: bytes.count - expected)
      }
      throw ModelFileError.checksumMismatch(file: file)
    }
    return header
  }

  /// The weight and bias of each layer, from `offset` on; finite values only.
  private static func readLayers(
    _ bytes: [UInt8], at start: Int, structure: [TensorEntry], file: String
  ) throws -> [Linear] {
    var offset = start
    var layers: [Linear] = []
    for l in 0..<(structure.count / 2) {
      let shape = structure[2 * l].shape
      let weight = readFloats(bytes, at: &offset, count: shape[0] * shape[1])
      let bias = readFloats(bytes, at: &offset, count: shape[0])
      guard weight.allSatisfy(\.isFinite), bias.allSatisfy(\.isFinite) else {
        throw ModelFileError.malformedHeader(
          file: file, reason: "layer \(l) holds NaN or infinite weights")
      }
      layers.append(
        Linear(
          weight: Matrix(rowCount: shape[0], columnCount: shape[1], values: weight), bias: bias))
    }
    return layers
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

  /// Whether the last 4 bytes are the CRC-32 of the rest (version 2 and later).
  static func checksumMatches(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 4 else { return false }
    return CRC32.checksum(bytes[0..<(bytes.count - 4)]) == readUInt32(bytes, at: bytes.count - 4)
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
