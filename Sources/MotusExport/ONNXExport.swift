// A trained model as one ONNX graph (opset 17): raw window in, calibrated probabilities out,
// so that ONNX Runtime on Android, in Python or on a server runs the whole pipeline with no
// feature code of its own.
//
//   window [N, W, R] float: W samples at the model's rate of the R raw columns `inputs` names
//     -> channel recipes (float, as ChannelPlan) -> channels [N, C, W] double
//     -> per-channel statistics and spectra (double, as FeatureExtractor's Double sums)
//     -> axis correlations, gravity angles, vertical/horizontal split
//     -> features [N, F] float -> standardise -> layers (Gemm, Relu) -> logits / temperature
//     -> probabilities [N, K] float (softmax); novelty [N, 1] when the model has a detector.
//
// Each formula mirrors FeatureExtractor (see its header for the definitions); the parity
// script (scripts/onnx-parity.sh) checks the two against each other on real windows.
// Sorting is TopK, percentiles are Gathers of the sorted window, spectra are DFT, band powers
// are differences of running sums (CumSum), and the autocorrelation is the DFT of the
// zero-padded power spectrum (real and even, so a forward DFT serves as the inverse). No
// constant grows faster than the window or the model's weights.

import Foundation
import MotusData
import MotusFeatures
import MotusModels

/// Writes a `TrainedModel` as an ONNX model.
public enum ONNXExport {
  /// ONNX opset: 17 is the first with DFT.
  public static let opset = 17

  /// The names of the raw columns, in the order of the input's last axis.
  public static func inputColumns(of model: TrainedModel) -> [String] {
    ChannelSelector.rawInputs(of: model.featureSpec.recipes)
  }

  /// The ONNX file's bytes.
  ///
  /// - Parameters:
  ///   - model: The model to export.
  ///   - producerVersion: Written as the file's producer version.
  /// - Throws: `ONNXExportError` naming what the graph cannot express.
  public static func encode(_ model: TrainedModel, producerVersion: String) throws -> [UInt8] {
    let builder = try PipelineGraph(model: model)
    let graph = builder.build()
    let spec = model.featureSpec
    let inputs = inputColumns(of: model)
    var metadata: [(String, String)] = [
      ("motus.inputs", inputs.joined(separator: ",")),
      ("motus.classes", model.classes.joined(separator: ",")),
      ("motus.sample_rate_hz", "\(spec.sampleRateHz)"),
      ("motus.window_length", "\(spec.windowLength)"),
      ("motus.hop_length", "\(spec.hopLength)"),
      ("motus.temperature", "\(model.temperature)"),
      ("motus.unknown_below", "\(model.unknownThreshold)"),
      ("motus.feature_names", spec.featureNames.joined(separator: ",")),
    ]
    if !model.negativeClasses.isEmpty {
      metadata.append(("motus.negative_classes", model.negativeClasses.joined(separator: ",")))
      metadata.append(("motus.negative_threshold", "\(model.negativeThreshold)"))
    }
    if let novelty = model.novelty {
      metadata.append(("motus.novelty_threshold", "\(novelty.threshold)"))
    }
    let novelty =
      model.novelty == nil ? "" : ", `novelty` [batch, 1] (unknown above motus.novelty_threshold)"
    let documentation = """
      Motus activity classifier. Input `window`: [batch, \(spec.windowLength), \
      \(inputs.count)] float, \(spec.windowLength) samples at \(spec.sampleRateHz) Hz of \
      \(inputs.joined(separator: ", ")) (g and rad/s, Core Motion sign). Outputs: \
      `probabilities` [batch, \(model.classes.count)] over \
      \(model.classes.joined(separator: ", ")) (calibrated), `features` [batch, \
      \(model.featureCount)]\(novelty).
      """
    return graph.serialized(
      opset: opset, producer: "motus", version: producerVersion, documentation: documentation,
      metadata: metadata)
  }
}

/// Why a model cannot be written as ONNX.
public enum ONNXExportError: Error, Equatable, CustomStringConvertible {
  /// A feature the graph cannot compute, by its name, and why.
  case unsupportedFeature(String, reason: String)
  /// A feature summarising the previous windows (motus train --context), by its name.
  case unsupportedContext(String, windowCount: Int)
  /// Parity data without one of the model's raw columns.
  case missingColumn(String, available: [String])
  /// Parity data at another rate than the model's.
  case sampleRateMismatch(session: String, dataHz: Double, modelHz: Double)

  public var description: String {
    switch self {
    case .unsupportedFeature(let name, let reason):
      return "the ONNX export cannot express feature '\(name)': \(reason). "
        + "HINT: train the model without it (see motus train --statistics and --spectral)."
    case .unsupportedContext(let name, let windowCount):
      return "the ONNX export cannot express feature '\(name)': it summarises the last "
        + "\(windowCount) windows and the graph sees one window at a time. "
        + "HINT: train the model with --context 0 to export it, or run it with motus stream."
    case .missingColumn(let name, let available):
      return "the parity data has no column '\(Excerpt.text(name))' (it has "
        + "\(Excerpt.list(available))). HINT: give data with the model's raw columns "
        + "(motus model-info lists them)."
    case .sampleRateMismatch(let session, let dataHz, let modelHz):
      return "session '\(Excerpt.text(session))' is sampled at \(dataHz) Hz, the model at "
        + "\(modelHz) Hz. HINT: give CSV paths (they are resampled to the model's rate) or a "
        + "manifest at the model's rate."
    }
  }
}
