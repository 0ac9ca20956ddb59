// `motus export`: a model file as ONNX, optionally with real windows to check a runtime against.

import ArgumentParser
import Foundation
import Motus

struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a model as ONNX: raw window in, calibrated probabilities out.",
    discussion: """
      The ONNX graph (opset 17) runs the whole pipeline, so another runtime (ONNX Runtime on \
      Android, in Python, on a server) needs no feature code: input `window` [batch, W, R] \
      float, W samples at the model's rate of its R raw columns (`motus model-info` lists \
      them; g and rad/s, Core Motion sign); outputs `probabilities` [batch, K] (calibrated), \
      `features` [batch, F] and, when the model has a novelty detector, `novelty` [batch, 1]. \
      Classes, inputs, rate, window, hop and the unknown thresholds are in the file's \
      metadata (`motus.*`). Resampling, windowing a stream, the unknown decision, smoothing \
      and counting stay with the host. Given data, it also writes real windows with motus's \
      own features and probabilities as .npy files (--parity-output), which \
      scripts/onnx-parity.sh checks ONNX Runtime against. Examples:
        motus export models/six-class.motus -o six-class.onnx
        motus export models/six-class.motus -o six-class.onnx \\
          --manifest datasets/six-class.json --parity-output parity/
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case onnx }

  @Argument(help: ArgumentHelp("Model file written by `motus train`.", valueName: "model"))
  var model: String

  @OptionGroup var data: DataOptions

  @Option(help: "Output format.")
  var format: Format = .onnx

  @Option(
    name: [.short, .long],
    help: ArgumentHelp("The ONNX file to write (atomically).", valueName: "file"))
  var output: String

  @Option(
    help: ArgumentHelp(
      "Folder for windows.npy, features.npy and probabilities.npy of the data's windows.",
      valueName: "folder"))
  var parityOutput: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Windows in the parity sample, spread evenly over the data.", valueName: "count"))
  var parityWindows = 2000

  func validate() throws {
    if data.hasData != (parityOutput != nil) {
      throw ValidationError(
        data.hasData
          ? "data was given without '--parity-output'; the data only feeds the parity sample."
          : "'--parity-output' needs data: CSV paths or --manifest.")
    }
    guard parityWindows > 0 else {
      throw ValidationError("'--parity-windows' must be positive, got \(parityWindows).")
    }
    if data.channels != nil {
      throw ValidationError("'--channels' cannot be used: the model names its raw columns.")
    }
  }

  func run() throws {
    let inputs = try [model] + data.inputFiles()
    let trained: TrainedModel = try ModelFile.read(path: model)
    // Every output before the work, each declared to the others: one file cannot be two of them.
    let parityPaths =
      parityOutput.map { folder in
        ParitySample.fileNames(hasNovelty: trained.novelty != nil).map {
          (folder as NSString).appendingPathComponent($0)
        }
      } ?? []
    let outputFile = try OutputFile(
      path: output, flag: "--output", inputs: inputs,
      otherOutputs: parityPaths + (parityOutput.map { [$0] } ?? []))
    let parityFiles = try parityOutput.map {
      try openParityFiles(parityPaths, in: $0, inputs: inputs)
    }
    let bytes: [UInt8] = try ONNXExport.encode(trained, producerVersion: MotusVersion.string)
    try outputFile.write(bytes)
    // Every file is written before any is committed: a failure leaves earlier outputs intact.
    let windowCount = try parityFiles.map { try writeParitySample(trained, to: $0) }
    try outputFile.commit()
    for file in parityFiles ?? [] { try file.commit() }
    let columns = ONNXExport.inputColumns(of: trained)
    Warnings.write(
      "wrote \(output) (\(bytes.count) bytes): window [batch, "
        + "\(trained.featureSpec.windowLength), \(columns.count)] of "
        + "\(columns.joined(separator: ", ")) at \(trained.featureSpec.sampleRateHz) Hz -> "
        + "probabilities of \(trained.classes.joined(separator: ", ")).\n")
    if let windowCount, let parityOutput {
      let names = parityPaths.map { PathName.last($0) }
      Warnings.write(
        "wrote \(windowCount) windows of the data with motus's features and probabilities to "
          + "\(parityOutput)/ (\(names.joined(separator: ", "))).\n")
    }
  }

  /// The parity sample's outputs in `folder` (made when missing), opened by the output rule.
  private func openParityFiles(_ paths: [String], in folder: String, inputs: [String]) throws
    -> [OutputFile]
  {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw ToolError(
        "cannot create the '--parity-output' folder \(folder): \(error.localizedDescription).",
        hint: "choose a writable folder.")
    }
    return try paths.map { path in
      try OutputFile(
        path: path, flag: "--parity-output", inputs: inputs,
        otherOutputs: [output] + paths.filter { $0 != path })
    }
  }

  /// Writes windows of the data with motus's features and probabilities to `files` (in
  /// `ParitySample.fileNames` order), uncommitted; returns the number of windows.
  private func writeParitySample(_ trained: TrainedModel, to files: [OutputFile]) throws -> Int {
    let dataset = try loadRawColumns(for: trained)
    let sample: ParitySample = try ParitySample.make(
      model: trained, dataset: dataset, maximumCount: parityWindows)
    guard sample.windowCount > 0 else {
      throw ToolError(
        "the data yields no window of \(trained.featureSpec.windowLength) samples.",
        hint: "give longer recordings.")
    }
    for (file, npy) in zip(files, sample.npyFiles) { try file.write(npy.bytes) }
    return sample.windowCount
  }

  /// The data's raw model columns at the model's rate.
  private func loadRawColumns(for trained: TrainedModel) throws -> Dataset {
    // Labels play no part in parity: unlabelled recordings serve as well. A manifest keeps
    // its own channels and rate.
    let raw = ONNXExport.inputColumns(of: trained).map { ChannelRecipe.copy($0) }
    let source = try data.source(requireLabels: false).reading(
      recipes: raw, sampleRateHz: trained.featureSpec.sampleRateHz)
    return try ProgressLine.reading { try source.load(progress: $0) }.result.dataset
  }
}
