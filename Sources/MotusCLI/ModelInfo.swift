// `motus model-info`: what a model file holds, as text or JSON.

import ArgumentParser
import Foundation
import Motus

struct ModelInfo: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "model-info",
    abstract: "Describe a model file: classes, inputs, windows, features, classifier, training.",
    discussion: """
      Reads a .motus file and prints what it holds: the classes; the CSV columns it needs \
      (raw inputs of its channel recipes; acceleration.x/y/z may instead come from \
      gravity + userAcceleration); sample rate, window and hop; the feature spec; the \
      classifier's kind and layer sizes; calibration temperature, confidence cut-offs and \
      unknown threshold; and how it was trained. Examples:

        motus model-info models/six-class.motus
        motus model-info models/six-class.motus --format json | jq '.inputs'

      JSON keys (seconds, Hz, bytes): file, fileBytes, formatVersion, classes, inputs \
      [{name, or}], recipes [{name, operation, inputs, scale}], sampleRateHz, window \
      {samples, seconds}, hop {samples, seconds}, features {count, channels, statistics, \
      spectral, bandEdgesHz, bandCount, vectors, gravity, decomposedVectors, \
      logPowerFloor}, classifier {kind, layers [{inputs, outputs}], hiddenLayerSizes, \
      parameterCount}, temperature, confidenceCutoffs {medium, high}, unknownThreshold, \
      negativeClasses, negativeThreshold (absent without negative classes), novelty \
      {components, threshold} (absent without a novelty detector), classStatistics \
      (whether the file stores what adapting rehearses from), \
      training {seed, hyperparameters, validationMetrics, trainingRowCount, \
      validationRowCount, validationGroups, dataDigest, motusVersion, adaptation \
      {baseModelDigest, baseDataDigest, dataDigest, windowsPerClass, settings} (absent unless \
      adapted by `motus adapt`)}.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

  @OptionGroup var modelFile: ModelFileArgument
  var modelPath: String { modelFile.path }

  @Option(
    help: ArgumentHelp(
      "Output format: text, or one JSON object (keys listed above).",
      discussion: "Example: `motus model-info m.motus --format json`.", valueName: "text|json"))
  var format: Format = .text

  func run() throws {
    let bytes: Data
    let model: TrainedModel
    do {
      bytes = Data(try InputFile.read(modelPath, limit: ModelFile.maximumFileBytes))
    } catch let error as InputFileError {
      throw ModelFileError.unreadable(file: error.file, reason: error.reason)
    }
    model = try ModelFile.decode(bytes, file: InputFile.displayName(modelPath))
    let version = try ModelFile.formatVersion(of: bytes, file: InputFile.displayName(modelPath))
    let summary = Summary(model: model, file: modelPath, fileBytes: bytes.count, version: version)
    switch format {
    case .text: try StandardOutput.print(summary.text, terminator: "")
    case .json:
      let json = try JSONEncoder.sortedKeys(prettyPrinted: true).encode(summary)
      try StandardOutput.print(String(decoding: json, as: UTF8.self))
    }
  }

  /// Everything printed, in JSON key order.
  struct Summary: Encodable {
    struct Input: Encodable {
      var name: String
      /// Columns that can stand in for it (`gravity.x + userAcceleration.x`), or empty.
      var or: [String]
    }
    struct Span: Encodable {
      var samples: Int
      var seconds: Double
    }
    struct Features: Encodable {
      var count: Int
      var channels: [String]
      var statistics: [String]
      var spectral: [String]
      var bandEdgesHz: [Double]
      var bandCount: Int
      var vectors: [[String]]
      var gravity: [String]?
      var decomposedVectors: [[String]]
      /// Only when `log_band` uses it.
      var logPowerFloor: Double?
    }
    struct Layer: Encodable {
      var inputs: Int
      var outputs: Int
    }
    struct Classifier: Encodable {
      var kind: String
      var layers: [Layer]
      var hiddenLayerSizes: [Int]
      var parameterCount: Int
    }

    var file: String
    var fileBytes: Int
    var formatVersion: UInt32
    var classes: [String]
    var inputs: [Input]
    var recipes: [ChannelRecipe]
    var sampleRateHz: Double
    var window: Span
    var hop: Span
    var features: Features
    var classifier: Classifier
    var temperature: Float
    var confidenceCutoffs: ConfidenceCutoffs
    var unknownThreshold: Float
    var negativeClasses: [String]
    var negativeThreshold: Float?
    var novelty: Novelty?
    /// Whether the file stores per-class statistics that adapting rehearses from.
    var classStatistics: Bool
    var training: TrainingMetadata

    struct Novelty: Encodable {
      var components: Int
      var threshold: Float
    }

    init(model: TrainedModel, file: String, fileBytes: Int, version: UInt32) {
      let spec = model.featureSpec
      self.file = file
      self.fileBytes = fileBytes
      formatVersion = version
      classes = model.classes
      inputs = ChannelSelector.rawInputs(of: spec.recipes).map { name in
        let axis = ChannelSelector.axes.first { name == "acceleration.\($0)" }
        return Input(
          name: name, or: axis.map { ["gravity.\($0)", "userAcceleration.\($0)"] } ?? [])
      }
      recipes = spec.recipes
      sampleRateHz = spec.sampleRateHz
      window = Span(samples: spec.windowLength, seconds: spec.windowSeconds)
      hop = Span(samples: spec.hopLength, seconds: spec.hopSeconds)
      features = Features(
        count: model.featureCount, channels: spec.channels,
        statistics: spec.statistics.map(\.rawValue), spectral: spec.spectral.map(\.rawValue),
        bandEdgesHz: spec.bandEdgesHz, bandCount: max(spec.bandEdgesHz.count - 1, 0),
        vectors: spec.vectors, gravity: spec.gravity, decomposedVectors: spec.decomposedVectors,
        logPowerFloor: spec.spectral.contains(.logBandPowers) ? spec.logPowerFloor : nil)
      let layers = model.classifier.network.layers
      classifier = Classifier(
        kind: model.classifier.kind,
        layers: layers.map { Layer(inputs: $0.inputCount, outputs: $0.outputCount) },
        hiddenLayerSizes: layers.dropLast().map(\.outputCount),
        parameterCount: layers.reduce(0) { $0 + $1.weight.values.count + $1.bias.count })
      temperature = model.temperature
      confidenceCutoffs = model.confidenceCutoffs
      unknownThreshold = model.unknownThreshold
      negativeClasses = model.negativeClasses
      negativeThreshold = model.negativeClasses.isEmpty ? nil : model.negativeThreshold
      novelty = model.novelty.map {
        Novelty(components: $0.componentCount, threshold: $0.threshold)
      }
      classStatistics = model.classStatistics != nil
      training = model.metadata
    }

    var text: String {
      // Names come from the model file: escaped for the terminal as table cells are.
      func list(_ items: [String]) -> String {
        items.isEmpty ? "none" : items.map(Excerpt.printable).joined(separator: ", ")
      }
      func vectorList(_ v: [[String]]) -> String { list(v.map(FeatureSpec.vectorName)) }
      func num(_ x: Double) -> String { String(format: "%.4g", x) }
      var out =
        "file: \(Excerpt.printable(file)) (\(fileBytes) bytes, format version \(formatVersion))\n"
      out += "classes (\(classes.count)): \(list(classes))\n"
      out += "\nCSV columns needed (\(inputs.count)):\n"
      out += TextTable.indented(
        ["column", "or instead"],
        inputs.map { [$0.name, $0.or.isEmpty ? "-" : $0.or.joined(separator: " + ")] },
        rightAligned: [])
      out += "\nchannels (\(recipes.count)):\n"
      out += TextTable.indented(
        ["channel", "computed as"], recipes.map { [$0.name, Inspect.describe($0)] },
        rightAligned: [])
      out += "\nsample rate: \(num(sampleRateHz)) Hz\n"
      out +=
        "window: \(window.samples) samples (\(num(window.seconds)) s), "
        + "hop: \(hop.samples) samples (\(num(hop.seconds)) s)\n"
      out += "\nfeatures: \(features.count)\n"
      out += "  channels: \(list(features.channels))\n"
      out += "  statistics (\(features.statistics.count)): \(list(features.statistics))\n"
      out += "  spectral (\(features.spectral.count)): \(list(features.spectral))\n"
      out += "  bands (\(features.bandCount)): edges \(list(features.bandEdgesHz.map(num))) Hz\n"
      out += "  vectors (axis correlations): \(vectorList(features.vectors))\n"
      out += "  gravity: \(features.gravity.map(list) ?? "none")\n"
      out +=
        "  decomposed vectors (vertical, horizontal): "
        + "\(vectorList(features.decomposedVectors))\n"
      out += "  log power floor: \(features.logPowerFloor.map(num) ?? "unused (no log_band)")\n"
      let sizes = classifier.layers.map { "\($0.inputs)->\($0.outputs)" }.joined(separator: ", ")
      out +=
        "\nclassifier: \(classifier.kind), layers \(sizes), "
        + "\(classifier.parameterCount) parameters\n"
      out += "calibration temperature: \(num(Double(temperature)))\n"
      out +=
        "confidence cut-offs: medium >= \(num(Double(confidenceCutoffs.medium))), "
        + "high >= \(num(Double(confidenceCutoffs.high)))\n"
      out +=
        "unknown threshold: \(num(Double(unknownThreshold)))"
        + (unknownThreshold == 0 ? " (never unknown on confidence alone)" : "") + "\n"
      if let negativeThreshold {
        out +=
          "negative classes: \(list(negativeClasses)) (unknown when they reach "
          + "\(num(Double(negativeThreshold))))\n"
      }
      if let novelty {
        out +=
          "novelty detector: \(novelty.components) components, unknown above score "
          + "\(num(Double(novelty.threshold)))\n"
      }
      out +=
        "class statistics: "
        + (classStatistics
          ? "stored (adapting holds the classes its data does not show)\n"
          : "none (adapting moves only what its data shows)\n")
      out += "\ntraining:\n"
      out += "  seed: \(training.seed)\n"
      out +=
        "  rows: \(training.trainingRowCount) training, "
        + "\(training.validationRowCount) validation\n"
      out += "  validation groups: \(list(training.validationGroups))\n"
      out += "  data digest: \(Excerpt.printable(training.dataDigest))\n"
      out += "  motus version: \(Excerpt.printable(training.motusVersion))\n"
      out += "  hyperparameters:\n"
      out += TextTable.indented(
        ["name", "value"],
        training.settingsText.sorted { $0.key < $1.key }.map { [$0.key, $0.value] },
        rightAligned: []
      ).split(separator: "\n").map { "  " + $0 + "\n" }.joined()
      if let adaptation = training.adaptation { out += Self.describe(adaptation) }
      guard !training.validationMetrics.isEmpty else {
        return out + "  validation metrics: none (nothing could be held out)\n"
      }
      out += "  validation metrics:\n"
      out += TextTable.indented(
        ["metric", "value"],
        training.validationMetrics.keys.sorted().map {
          [$0, String(format: "%.4f", training.validationMetrics[$0] ?? 0)]
        }, rightAligned: [1]
      ).split(separator: "\n").map { "  " + $0 + "\n" }.joined()
      return out
    }
  }
}
