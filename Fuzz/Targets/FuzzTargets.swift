// The inputs libFuzzer mutates, one function per parser a user's file reaches: the CSV reader
// (through loading, resampling and feature extraction), the model-file loader (through a
// stream that runs what loaded), the manifest loader (through path confinement), the
// stream's line parser (through the streaming engine), the phone-app readers, a file or a
// folder of files at a time (through the clock rule, the join and the loader), the Parquet
// reader (footer, pages, Snappy, levels, dictionaries and page CRCs), and the window-table
// spec reader (JSON, the feature spec's checks, its digest). Each must
// return, with a result or a thrown error, for every input: a trap, a hang or a huge
// allocation is a finding.
//
// Built with `-sanitize=fuzzer` by scripts/fuzz.sh; the tests replay Fuzz/Corpus and
// Fuzz/Regressions through the same functions.

import Foundation
import MotusData
import MotusFeatures
import MotusGzip
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusStreaming

public enum FuzzTargets {
  /// The targets by the names scripts/fuzz.sh and the corpus folders use.
  public static let all: [String: @Sendable ([UInt8]) -> Void] = [
    "csv": csvReader, "model": modelFile, "manifest": manifest, "stream": streamLines,
    "export": exportGraph,
    "app-file": appFile, "app-folder": appFolder, "parquet": parquetFile,
    "window-spec": windowTableSpec, "push": pushBody,
  ]

  /// Reads the bytes as the spec file beside a window table (`WindowTableSpec.read`: syntax,
  /// kind and version, every feature-spec field, the digest). A spec that reads must encode to
  /// bytes that read back as the same spec, its digest that of its feature spec.
  public static func windowTableSpec(_ bytes: [UInt8]) {
    guard let folder = AppScratch.fresh() else { return }
    let path = (folder as NSString).appendingPathComponent("spec.json")
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)),
      let spec = try? WindowTableSpec.read(path)
    else { return }
    guard spec.featureSpecDigest == nil
      || spec.featureSpecDigest == WindowTableSpec.digest(of: spec.featureSpec)
    else { fatalError("a spec read whose digest is not its feature spec's") }
    guard let again = try? spec.encoded(),
      FileManager.default.createFile(atPath: path, contents: Data(again))
    else { return }
    guard let reread = try? WindowTableSpec.read(path), reread == spec else {
      fatalError("a spec that reads does not read back as itself once encoded")
    }
  }

  /// Decodes the bytes as one Parquet file (at most 2^16 values, so a tiny file declaring
  /// billions of nulls is refused rather than allocated) and asks for every column both ways;
  /// a table that decodes must hold one value per row in every column.
  public static func parquetFile(_ bytes: [UInt8]) {
    guard let table = try? ParquetTable.decode(bytes, file: "fuzz.parquet", valueLimit: 1 << 16)
    else { return }
    guard table.columns.allSatisfy({ $0.count == table.rowCount }),
      table.columns.count == table.columnNames.count
    else { fatalError("a Parquet table whose columns do not all hold its rows") }
    for name in table.columnNames {
      _ = try? table.doubles(name)
      _ = try? table.strings(name)
    }
  }

  /// Loads the bytes as a CSV file under load options chosen by the first byte (its top bit:
  /// also gzipped, from a file), then windows whatever loaded.
  public static func csvReader(_ bytes: [UInt8]) {
    let selector = bytes.first ?? 0
    var options = LoadOptions()
    options.requireLabels = selector & 1 == 0
    if selector & 2 != 0 { options.sampleRateHz = selector & 4 != 0 ? 15 : 50 }
    if selector & 8 != 0 { options.channelPatterns = ["acceleration.*", "|acceleration|"] }
    if selector & 16 != 0 { options.modelRecipes = streamModel.featureSpec.recipes }
    options.negateAcceleration = selector & 32 != 0
    options.checkValueRange = selector & 64 == 0
    // The top bit also reads the bytes gzipped from a file: inflated into the loader's blocks.
    if selector & 128 != 0, let folder = AppScratch.fresh() {
      let path = (folder as NSString).appendingPathComponent("fuzz.csv.gz")
      if FileManager.default.createFile(atPath: path, contents: Data(Gzip.compress(bytes))) {
        _ = try? DataSource(files: [path], options: options).load()
      }
    }
    guard
      let loaded = try? DatasetLoader.load(
        inputs: [InputBytes(name: "fuzz.csv", bytes: bytes)], options: options)
    else { return }
    window(loaded)
  }

  /// Writes the bytes after the first as one app export (the first picks its name and the
  /// load options), then loads it as every command does and streams it as long-layout text.
  public static func appFile(_ bytes: [UInt8]) { _ = loadAppFile(bytes) }

  /// `appFile`, returning what loaded (nil for an error).
  @discardableResult
  public static func loadAppFile(_ bytes: [UInt8]) -> LoadResult? {
    let selector = bytes.first ?? 0
    let names = ["recording.csv", "Raw Data.csv", "Accelerometer.csv", "Linear Accelerometer.csv"]
    guard let folder = AppScratch.fresh() else { return nil }
    let path = (folder as NSString).appendingPathComponent(names[Int(selector & 3)])
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes.dropFirst())) else {
      return nil
    }
    return loadApp(path, selector: selector >> 2)
  }

  /// Splits the bytes at NUL into files of one folder, each part's first line naming its file
  /// (`Accelerometer.csv`, `meta/device.csv`, `walk/rec.csv`: one subfolder level), as Sensor
  /// Logger and phyphox export folders and trees of recordings are; the first byte picks the
  /// load options. Then loads the folder as every command does.
  public static func appFolder(_ bytes: [UInt8]) { _ = loadAppFolder(bytes) }

  /// `appFolder`, returning what loaded (nil for an error).
  @discardableResult
  public static func loadAppFolder(_ bytes: [UInt8]) -> LoadResult? {
    let selector = bytes.first ?? 0
    guard let folder = AppScratch.fresh() else { return nil }
    for (k, part) in bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false)
      .prefix(12).enumerated()
    {
      let line = part.prefix { $0 != UInt8(ascii: "\n") }
      let name = AppScratch.safeName(Array(line), fallback: "f\(k).csv")
      let path = (folder as NSString).appendingPathComponent(name)
      let parent = (path as NSString).deletingLastPathComponent
      try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
      _ = FileManager.default.createFile(
        atPath: path, contents: Data(part.dropFirst(line.count + 1)))
    }
    _ = try? DatasetLoader.appRecordingPaths([folder])
    return loadApp(folder, selector: selector)
  }

  /// Loads `path` under options chosen by `selector`, windows what loaded, and streams the
  /// recording as long-layout text (the rows a CSV export of it holds) through the engine.
  private static func loadApp(_ path: String, selector: UInt8) -> LoadResult? {
    var options = LoadOptions()
    options.appLabels = AppExportLabels(label: "walking")
    options.checkValueRange = selector & 1 == 0
    if selector & 2 != 0 { options.sampleRateHz = 15 }
    if selector & 4 != 0 { options.channelPatterns = ["acceleration.*", "|acceleration|"] }
    if selector & 8 != 0 { options.minimumGapSeconds = 0 }
    if selector & 16 != 0 { options.modelRecipes = streamModel.featureSpec.recipes }
    let source = DataSource(files: [path], options: options)
    let loaded = try? source.load().result
    if let loaded { window(loaded) }
    _ = try? source.outline()
    if let recording = try? AppExport.read(path: path, label: "walking", gapRule: options.gapRule) {
      streamLines(recording.longLayout())
    }
    return loaded
  }

  /// Windows and features of whatever loaded, at a small window.
  private static func window(_ loaded: LoadResult) {
    guard let rate = loaded.dataset.recordings.first?.sampleRateHz else { return }
    let spec = FeatureSpec.standard(
      recipes: loaded.recipes, channels: loaded.recipes.map(\.name),
      sampleRateHz: FeatureSpec.nominalRate(rate), windowLength: 8, hopLength: 4)
    guard let extractor = try? FeatureExtractor(spec: spec) else { return }
    _ = try? WindowTable.make(dataset: loaded.dataset, extractor: extractor)
  }

  /// Decodes the bytes as a model file, then again with the checksum made to match (so that
  /// mutations reach the header checks); a model that loads must stream and re-encode.
  public static func modelFile(_ bytes: [UInt8]) {
    loadAndRun(bytes)
    guard bytes.count > 20 else { return }
    var sealed = Array(bytes.dropLast(4))
    withUnsafeBytes(of: ModelFile.checksum(sealed).littleEndian) { sealed += $0 }
    loadAndRun(sealed)
  }

  private static func loadAndRun(_ bytes: [UInt8]) {
    guard let model = try? ModelFile.decode(Data(bytes), file: "fuzz.motus") else { return }
    // Bytes, not models, are compared: metadata may hold NaN metrics, which equal nothing.
    guard let encoded = try? ModelFile.encode(model),
      let again = try? ModelFile.decode(encoded, file: "again.motus"),
      (try? ModelFile.encode(again)) == encoded
    else { fatalError("a model that loads does not survive encoding again") }
    let inputs = ChannelSelector.rawInputs(of: model.featureSpec.recipes)
    guard let engine = try? StreamingClassifier(model: model, inputChannels: inputs) else {
      return
    }
    let samples = min(2 * model.featureSpec.windowLength + 1, 4096)
    var values = [Float](repeating: 0, count: inputs.count)
    for t in 0..<samples {
      for c in values.indices { values[c] = Float((t * 7 + c * 3) % 11) * 0.1 - 0.5 }
      values.withUnsafeBufferPointer {
        engine.append(timestamp: Double(t) / engine.inputRateHz, values: $0) { _ in }
      }
    }
    engine.finish { _ in }
  }

  /// Decodes and checks the bytes as a manifest, then places every source file under a
  /// data root (which must refuse paths that leave it).
  public static func manifest(_ bytes: [UInt8]) {
    guard let manifest = try? Manifest.decode(bytes, file: "fuzz.json") else { return }
    let root = "/nonexistent-data-root"
    for (i, source) in manifest.sources.enumerated() {
      for (j, path) in source.files.enumerated() {
        guard
          let placed = try? Manifest.confinedPath(
            path, root: root, allowOutside: false, file: "fuzz.json",
            key: "sources[\(i)].files[\(j)]")
        else { continue }
        guard staysInside(placed, root: root) else {
          fatalError("'\(path)' was placed outside the data root: \(placed)")
        }
      }
    }
  }

  /// Whether resolving `path`'s `.` and `..` components, as the file system does (byte by
  /// byte), never leaves `root`.
  public static func staysInside(_ path: String, root: String) -> Bool {
    let slash = UInt8(ascii: "/")
    var parts: [ArraySlice<UInt8>] = []
    for part in Array(path.utf8).split(separator: slash) {
      if part.elementsEqual("..".utf8) {
        if parts.popLast() == nil { return false }
      } else if !part.elementsEqual(".".utf8) {
        parts.append(part)
      }
    }
    let rootParts = Array(root.utf8).split(separator: slash)
    return parts.count >= rootParts.count && zip(parts, rootParts).allSatisfy { $0 == $1 }
  }

  /// Splits the bytes into lines: a header, then rows, through the stream's row reader into
  /// a streaming engine, as `motus stream` runs them.
  public static func streamLines(_ bytes: [UInt8]) {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { line -> [UInt8] in
        var line = Array(line)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
      }
    guard !lines.isEmpty else { return }
    let header = lines.removeFirst()
    guard
      var reader = try? StreamRowReader(
        header: header, file: "fuzz.csv", model: streamModel,
        negateAcceleration: header.first == UInt8(ascii: " "))
    else { return }
    var values = [Float](repeating: 0, count: reader.inputs.count)
    var pending: [(time: Double, values: [Float])] = []
    var engine: StreamingClassifier?
    for line in lines {
      let row = values.withUnsafeMutableBufferPointer { reader.read(line, into: $0) }
      guard case .sample(let time, _) = row else { continue }
      if let engine {
        values.withUnsafeBufferPointer { engine.append(timestamp: time, values: $0) { _ in } }
        continue
      }
      pending.append((time, values))
      guard pending.count >= 8 else { continue }
      var configuration = StreamConfiguration()
      configuration.inputRateHz = estimateSampleRateHz(timestamps: pending.map(\.time))
      guard
        let started = try? StreamingClassifier(
          model: streamModel, inputChannels: reader.inputs, configuration: configuration)
      else { return }
      for sample in pending {
        sample.values.withUnsafeBufferPointer {
          started.append(timestamp: sample.time, values: $0) { _ in }
        }
      }
      engine = started
    }
    engine?.finish { _ in }
  }

  /// A small acceleration model at 15 Hz (the shipped model's recipes), built in code.
  public static let streamModel: TrainedModel = {
    let axes = ["acceleration.x", "acceleration.y", "acceleration.z"]
    let recipes =
      axes.map { ChannelRecipe.copy($0) } + [
        ChannelRecipe(name: "|acceleration|", operation: .magnitude, inputs: axes)
      ]
    let spec = FeatureSpec(
      recipes: recipes, channels: ["|acceleration|"], sampleRateHz: 15, windowLength: 16,
      hopLength: 8, statistics: [.mean, .std, .kurtosis], spectral: [.bandPowers],
      bandEdgesHz: [0, 2, 7.5])
    let featureCount = spec.featureNames.count
    let classes = ["still", "moving", "push-up"]
    let weights = (0..<(classes.count * featureCount)).map { Float($0 % 5) * 0.25 - 0.5 }
    let linear = Linear(
      weight: Matrix(rowCount: classes.count, columnCount: featureCount, values: weights),
      bias: [0.1, 0, -0.1])
    return TrainedModel(
      featureSpec: spec,
      standardizer: Standardizer(
        mean: [Float](repeating: 0.5, count: featureCount),
        scale: [Float](repeating: 2, count: featureCount)),
      classifier: .logistic(LogisticRegression(classes: classes, linear: linear)),
      confidenceCutoffs: ConfidenceCutoffs(medium: 0.5, high: 0.8),
      metadata: TrainingMetadata(dataDigest: "0000000000000000", seed: 0, motusVersion: "fuzz"))
  }()
}

/// The folder the app targets write their files to: one per process, emptied per input.
enum AppScratch {
  static let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("motus-fuzz-\(ProcessInfo.processInfo.processIdentifier)").path

  /// The folder, emptied; nil when it cannot be made.
  static func fresh() -> String? {
    try? FileManager.default.removeItem(atPath: folder)
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      return nil
    }
    return folder
  }

  /// A file name from `bytes`: letters, digits, space, `.`, `_`, `-`, at most one `/`; no
  /// component that climbs out or hides (`..`, a leading `.`).
  static func safeName(_ bytes: [UInt8], fallback: String) -> String {
    let allowed = Set(
      Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ._-/".utf8))
    var kept = bytes.prefix(60).filter { allowed.contains($0) }
    if let slash = kept.firstIndex(of: UInt8(ascii: "/")) {
      kept = Array(kept[...slash]) + kept[(slash + 1)...].filter { $0 != UInt8(ascii: "/") }
    }
    let components = String(decoding: kept, as: UTF8.self).split(separator: "/").map {
      $0.hasPrefix(".") ? "_" + $0.dropFirst() : String($0)
    }
    let name = components.filter { !$0.isEmpty }.joined(separator: "/")
    return name.isEmpty ? fallback : name
  }
}
