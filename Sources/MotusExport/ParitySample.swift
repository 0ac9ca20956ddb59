// Real windows as the exported graph takes them, beside what Motus computes for each, so that
// another runtime can be checked against Motus (scripts/onnx-parity.sh). Motus's side runs the
// same steps as inference: ChannelPlan over the raw columns, FeatureExtractor, TrainedModel.

import Foundation
import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels

/// Windows of raw columns `[N, W, R]` with Motus's features `[N, F]` and probabilities `[N, K]`.
public struct ParitySample: Sendable {
  public var windowCount: Int
  public var windowLength: Int
  public var inputCount: Int
  public var windows: [Float]
  public var features: [Float]
  public var probabilities: [Float]
  /// Novelty scores `[N]`, when the model has a detector.
  public var novelty: [Float]?
  public var classCount: Int
  public var featureCount: Int

  /// Up to `maximumCount` windows of `dataset`, whose channels include the model's raw
  /// columns (loaded with those columns as copy recipes, or by a manifest naming them).
  ///
  /// - Throws: `ONNXExportError.missingColumn` or `.sampleRateMismatch`.
  public static func make(
    model: TrainedModel, dataset: Dataset, maximumCount: Int
  ) throws -> ParitySample {
    let rate = model.featureSpec.sampleRateHz
    let indices = try ONNXExport.inputColumns(of: model).map { name in
      guard let index = dataset.channels.firstIndex(of: name) else {
        throw ONNXExportError.missingColumn(name, available: dataset.channels)
      }
      return index
    }
    let recordings = try dataset.recordings.map { recording in
      guard abs(recording.sampleRateHz - rate) <= 0.02 * rate else {
        throw ONNXExportError.sampleRateMismatch(
          session: recording.session, dataHz: recording.sampleRateHz, modelHz: rate)
      }
      var selected = recording
      selected.columns = indices.map { recording.columns[$0] }
      return selected
    }
    return try make(model: model, recordings: recordings, maximumCount: maximumCount)
  }

  /// Up to `maximumCount` windows of `recordings`, spread evenly over all of their windows.
  ///
  /// - Parameter recordings: Columns in `ONNXExport.inputColumns(of: model)` order, at the
  ///   model's rate (load them with those columns as copy recipes).
  /// (Internal: `make(model:dataset:maximumCount:)` checks the columns and rates it assumes.)
  static func make(
    model: TrainedModel, recordings: [Recording], maximumCount: Int
  ) throws -> ParitySample {
    let spec = model.featureSpec
    let inputs = ONNXExport.inputColumns(of: model)
    let plan = try ChannelPlan(recipes: spec.recipes, rawChannels: inputs)
    var extractor = try FeatureExtractor(spec: spec)
    let n = spec.windowLength
    var starts: [(recording: Int, start: Int)] = []
    for (r, recording) in recordings.enumerated() where recording.sampleCount >= n {
      for start in stride(from: 0, through: recording.sampleCount - n, by: spec.hopLength) {
        starts.append((r, start))
      }
    }
    if starts.count > maximumCount {
      let step = Double(starts.count) / Double(maximumCount)
      starts = (0..<maximumCount).map { starts[Int(Double($0) * step)] }
    }
    var sample = ParitySample(
      windowCount: starts.count, windowLength: n, inputCount: inputs.count, windows: [],
      features: [], probabilities: [], novelty: nil, classCount: model.classes.count,
      featureCount: model.featureCount)
    var channels: (recording: Int, columns: [[Float]])? = nil
    for (r, start) in starts {
      let raw = recordings[r].columns
      if channels?.recording != r { channels = (r, plan.apply(columns: raw)) }
      for t in start..<(start + n) {
        for c in 0..<inputs.count { sample.windows.append(raw[c][t]) }
      }
      sample.features += extractor.extract(columns: channels!.columns, start: start)
    }
    let rows = Matrix(
      rowCount: starts.count, columnCount: model.featureCount, values: sample.features)
    sample.probabilities = starts.isEmpty ? [] : model.predictProbabilities(rows).values
    sample.novelty = starts.isEmpty ? nil : model.noveltyScores(rows)
    return sample
  }

  /// The names of `npyFiles`, in order, known before the sample is made (so that a command
  /// can open its outputs first).
  public static func fileNames(hasNovelty: Bool) -> [String] {
    ["windows.npy", "features.npy", "probabilities.npy"] + (hasNovelty ? ["novelty.npy"] : [])
  }

  /// `windows.npy`, `features.npy`, `probabilities.npy` and, with a detector, `novelty.npy`
  /// (NumPy format 1.0, little-endian float32), readable with `numpy.load`.
  public var npyFiles: [(name: String, bytes: [UInt8])] {
    var arrays = [
      Self.npy(windows, shape: [windowCount, windowLength, inputCount]),
      Self.npy(features, shape: [windowCount, featureCount]),
      Self.npy(probabilities, shape: [windowCount, classCount]),
    ]
    if let novelty { arrays.append(Self.npy(novelty, shape: [windowCount, 1])) }
    return Array(zip(Self.fileNames(hasNovelty: novelty != nil), arrays))
  }

  /// The NumPy `.npy` format: magic, version 1.0, a header dict padded to 64 bytes, data.
  static func npy(_ values: [Float], shape: [Int]) -> [UInt8] {
    let dimensions = shape.map(String.init).joined(separator: ", ") + (shape.count == 1 ? "," : "")
    var header = "{'descr': '<f4', 'fortran_order': False, 'shape': (\(dimensions)), }"
    let unpadded = 10 + header.utf8.count + 1
    header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
    var bytes: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0]
    bytes += [UInt8(header.utf8.count & 0xff), UInt8(header.utf8.count >> 8)]
    bytes += Array(header.utf8)
    bytes.reserveCapacity(bytes.count + values.count * 4)
    for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
    return bytes
  }
}
