// The exported ModelProto read back with an independent protobuf reader: versions, the input
// and output shapes, metadata, that every node reads only what is defined before it, and that
// it uses only operators ONNX Runtime implements for their types. The numbers themselves are
// checked against ONNX Runtime on real windows by scripts/onnx-parity.sh.

import Foundation
import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusIngest
import MotusModels
import XCTest

@testable import MotusExport

final class ONNXExportTests: XCTestCase {
  static var modelsFolder: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models")
  }

  func testShippedModels_ExportWellFormedGraphs() throws {
    for name in ["six-class", "motionsense-device-motion"] {
      let model = try ModelFile.read(
        path: Self.modelsFolder.appendingPathComponent("\(name).motus").path)
      let file = try ExportedModel(try ONNXExport.encode(model, producerVersion: "test"))
      let inputs = ONNXExport.inputColumns(of: model)
      XCTAssertEqual(file.irVersion, 8, name)
      XCTAssertEqual(file.opset, 17, name)
      XCTAssertEqual(
        file.inputs, ["window": ["batch", "\(model.featureSpec.windowLength)", "\(inputs.count)"]],
        name)
      XCTAssertEqual(file.outputs["probabilities"], ["batch", "\(model.classes.count)"], name)
      XCTAssertEqual(file.outputs["features"], ["batch", "\(model.featureCount)"], name)
      XCTAssertEqual(file.metadata["motus.classes"], model.classes.joined(separator: ","), name)
      XCTAssertEqual(file.metadata["motus.inputs"], inputs.joined(separator: ","), name)
      XCTAssertEqual(
        file.metadata["motus.feature_names"], model.featureSpec.featureNames.joined(separator: ","))
      XCTAssertEqual(file.undefinedInputs, [], name)
      XCTAssertEqual(Set(file.outputs.keys).subtracting(file.producedNames), [], name)
      XCTAssertEqual(Set(file.operators).subtracting(Self.supportedOperators), [], name)
    }
  }

  func testEveryFeatureLayout_IsWellFormedAndDeclaresItsWidth() throws {
    let recipes =
      ["userAcceleration", "gravity", "rotationRate"].flatMap { vector in
        ["x", "y", "z"].map { ChannelRecipe.copy("\(vector).\($0)") }
      } + [
        ChannelRecipe(
          name: "|userAcceleration|", operation: .magnitude,
          inputs: ["userAcceleration.x", "userAcceleration.y", "userAcceleration.z"], scale: -2)
      ]
    var specs: [FeatureSpec] = []
    var all = FeatureSpec.standard(
      recipes: recipes, channels: recipes.map(\.name), sampleRateHz: 50, windowLength: 64,
      hopLength: 32)
    all.spectral = SpectralFeature.allCases
    specs.append(all)  // vectors, gravity angles, every feature
    var decomposedOnly = all.restricted(toChannels: ["|userAcceleration|"])
    decomposedOnly.decomposedVectors = [
      ["userAcceleration.x", "userAcceleration.y", "userAcceleration.z"],
      ["gravity.x", "gravity.y", "gravity.z"],
    ]
    specs.append(decomposedOnly)
    var few = all
    few.statistics = [.kurtosis, .mean]  // no sort, no autocorrelation
    few.spectral = [.spectralEntropy]
    few.vectors = []
    specs.append(few)
    var vectorsOnly = all.restricted(toChannels: [])
    vectorsOnly.vectors = [["userAcceleration.x", "userAcceleration.y", "userAcceleration.z"]]
    specs.append(vectorsOnly)
    for spec in specs {
      let model = try Self.model(spec)
      let file = try ExportedModel(try ONNXExport.encode(model, producerVersion: "test"))
      XCTAssertEqual(file.outputs["features"], ["batch", "\(spec.featureNames.count)"])
      XCTAssertEqual(file.outputs["novelty"], ["batch", "1"])
      XCTAssertEqual(file.undefinedInputs, [])
      XCTAssertEqual(Set(file.operators).subtracting(Self.supportedOperators), [])
      // The per-channel block is reshaped to exactly C x P features.
      let perChannel =
        (spec.channels.count + 2 * spec.decomposedVectors.count)
        * (spec.statistics.count
          + spec.spectral.reduce(0) { $0 + ($1.isPerBand ? spec.bandEdgesHz.count - 1 : 1) })
      if perChannel > 0 { XCTAssertTrue(file.int64Constants.contains([-1, perChannel])) }
    }
  }

  func testLongWindows_ExportInASizeThatGrowsWithTheWindowNotItsSquare() throws {
    // The autocorrelation was a (W + 1) x W/2 table: 256 MB at 8,192 samples, 16.7 GB at
    // 65,536; band powers a bins x bands one. Now both are a few indices and DFTs.
    for window in [1024, 8192, 65536] {
      let spec = FeatureSpec(
        recipes: [.copy("a")], channels: ["a"], sampleRateHz: 100, windowLength: window,
        hopLength: window, statistics: [.mean, .autocorrelationPeak, .autocorrelationLag],
        spectral: [.bandPowers, .logBandPowers],
        bandEdgesHz: (0...500).map { Double($0) / 10 })
      let bytes = try ONNXExport.encode(try Self.model(spec), producerVersion: "test")
      XCTAssertEqual(try ExportedModel(bytes).undefinedInputs, [])
      XCTAssertLessThan(bytes.count, 32 * window + (1 << 20), "window \(window)")
    }
  }

  func testAOneSampleWindow_IsRefusedByFeatureName() throws {
    let spec = FeatureSpec(
      recipes: [.copy("a")], channels: ["a"], sampleRateHz: 10, windowLength: 1, hopLength: 1,
      statistics: [.mean], spectral: [], bandEdgesHz: [])
    XCTAssertThrowsError(try ONNXExport.encode(try Self.model(spec), producerVersion: "t")) {
      XCTAssertEqual(
        ($0 as? ONNXExportError).map {
          if case .unsupportedFeature(let name, _) = $0 { name } else { "" }
        },
        "a:mean")
      XCTAssertTrue("\($0)".contains("HINT"))
    }
  }

  func testAContextModel_IsRefusedByItsFirstContextFeature() throws {
    var spec = FeatureSpec(
      recipes: [.copy("a")], channels: ["a"], sampleRateHz: 10, windowLength: 8, hopLength: 4,
      statistics: [.mean, .std], spectral: [], bandEdgesHz: [])
    spec.context = FeatureContext(windowCount: 3, features: ["a:std"])
    XCTAssertThrowsError(try ONNXExport.encode(try Self.model(spec), producerVersion: "t")) {
      guard case .unsupportedContext(let name, let windowCount) = $0 as? ONNXExportError else {
        return XCTFail("\($0)")
      }
      XCTAssertEqual(name, spec.context?.featureNames.first)
      XCTAssertEqual(windowCount, 3)
      XCTAssertTrue("\($0)".contains("--context 0"))
    }
  }

  // MARK: - Parity sample

  func testParitySample_SpreadsWindowsAndKeepsRawColumns() throws {
    let spec = FeatureSpec(
      recipes: [
        .copy("x"), ChannelRecipe(name: "|v|", operation: .magnitude, inputs: ["x", "y"]),
      ],
      channels: ["|v|"], sampleRateHz: 10, windowLength: 8, hopLength: 4,
      statistics: [.mean, .max], spectral: [], bandEdgesHz: [])
    let model = try Self.model(spec, novelty: false)
    XCTAssertEqual(ONNXExport.inputColumns(of: model), ["x", "y"])
    let columns: [[Float]] = [(0..<40).map { Float($0) }, (0..<40).map { Float(-$0) }]
    let recording = Recording(
      session: "s", subject: "1", source: "t", timestamps: (0..<40).map { Double($0) / 10 },
      columns: columns, labelIndices: [Int32](repeating: 0, count: 40), sampleRateHz: 10)
    // Starts 0, 4, ..., 32: nine windows; five asked for.
    let dataset = Dataset(
      channels: ["y", "x"], labels: ["a"],
      recordings: [
        Recording(
          session: "s", subject: "1", source: "t", timestamps: recording.timestamps,
          columns: [columns[1], columns[0]], labelIndices: recording.labelIndices, sampleRateHz: 10)
      ])
    let sample = try ParitySample.make(model: model, dataset: dataset, maximumCount: 5)
    XCTAssertEqual(sample.windowCount, 5)
    // Window i starts at 4 * floor(i * 9 / 5) = 0, 4, 12, 20, 28; x then y per sample.
    let firstX = stride(from: 0, to: sample.windows.count, by: 8 * 2).map { sample.windows[$0] }
    XCTAssertEqual(firstX, [0, 4, 12, 20, 28])
    XCTAssertEqual(sample.windows[1], -0)
    XCTAssertEqual(sample.windows[3], -1)
    // |v| = sqrt(2) t: its max over the first window is sqrt(2) * 7.
    XCTAssertEqual(sample.features[1], 7 * Float(2).squareRoot(), accuracy: 1e-5)
    XCTAssertEqual(sample.probabilities.count, 5 * model.classes.count)
    XCTAssertNil(sample.novelty)

    var wrongRate = dataset
    wrongRate.recordings[0].sampleRateHz = 20
    XCTAssertThrowsError(try ParitySample.make(model: model, dataset: wrongRate, maximumCount: 5))
    let missing = Dataset(channels: ["x"], labels: ["a"], recordings: [])
    XCTAssertThrowsError(try ParitySample.make(model: model, dataset: missing, maximumCount: 5)) {
      XCTAssertTrue("\($0)".contains("'y'"), "\($0)")
    }
  }

  func testNPY_HeaderIsAlignedAndDescribesTheShape() throws {
    let bytes = ParitySample.npy([1, 2, 3, 4, 5, 6], shape: [2, 3])
    XCTAssertEqual(Array(bytes[0..<8]), [0x93] + Array("NUMPY".utf8) + [1, 0])
    let headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
    XCTAssertEqual((10 + headerLength) % 64, 0)
    let header = String(decoding: bytes[10..<(10 + headerLength)], as: UTF8.self)
    XCTAssertTrue(header.contains("'shape': (2, 3)"), header)
    XCTAssertTrue(header.hasSuffix("\n"))
    XCTAssertEqual(bytes.count, 10 + headerLength + 24)
    let last = bytes[(bytes.count - 4)...].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    XCTAssertEqual(Float(bitPattern: UInt32(littleEndian: last)), 6)
  }

  // MARK: - Support

  /// Operators ONNX Runtime 1.x implements on CPU for the types the export gives them (Acos is
  /// float only, hence its casts).
  static let supportedOperators: Set<String> = [
    "Abs", "Acos", "Add", "And", "ArgMax", "Cast", "Concat", "CumSum", "DFT", "Div", "Gather",
    "Gemm",
    "Greater", "GreaterOrEqual", "Less", "Log", "MatMul", "Max", "Min", "Mul", "ReduceMax",
    "ReduceMean", "ReduceMin", "ReduceSum", "Relu", "Reshape", "Slice", "Softmax", "Sqrt", "Sub",
    "TopK", "Unsqueeze", "Where",
  ]

  static func model(_ spec: FeatureSpec, novelty: Bool = true) throws -> TrainedModel {
    let f = spec.featureNames.count
    let metadata = TrainingMetadata(
      dataDigest: "0", seed: 1, validationMetrics: [:],
      trainingRowCount: 1, validationRowCount: 1, validationGroups: [], motusVersion: "test")
    return TrainedModel(
      featureSpec: spec,
      standardizer: Standardizer(
        mean: [Float](repeating: 0, count: f), scale: [Float](repeating: 1, count: f)),
      classifier: .mlp(
        MLPClassifier(
          classes: ["a", "b"],
          hidden: [
            Linear(weight: Matrix(rowCount: 3, columnCount: f, repeating: 0.1), bias: [0, 0, 0])
          ],
          output: Linear(weight: Matrix(rowCount: 2, columnCount: 3, repeating: 0.2), bias: [0, 1]))
      ),
      confidenceCutoffs: ConfidenceCutoffs(medium: 0.5, high: 0.9),
      novelty: novelty
        ? NoveltyDetector(
          mean: [Float](repeating: 0, count: f), components: [Float](repeating: 0, count: f),
          variances: [1], residualVariance: 1, threshold: 3)
        : nil,
      metadata: metadata)
  }
}
