// The one way in for labelled data: where it comes from (CSV files and folders, phone-app
// exports, standard input, or a manifest joining several sources) and how it is read. Every
// command and library caller loads through it, whole (`load`), as an outline (`outline`) or
// as windows (`windows`, in DataSource+Windows.swift), so each decision about reading (stream
// or whole, resample for a model, filter a manifest's subjects) is made in one place.

import Foundation
import MotusData

/// Labelled data to read, and how to read it.
///
///     let source = DataSource(files: ["walk.csv", "recordings/"])
///     let whole = try source.load()
///     print(whole.result.dataset.recordings.count)
public struct DataSource: Sendable {
  /// What the data is. One more kind is one more case here: callers build a source and ask
  /// it for data, and never look at its kind.
  enum Kind: Sendable {
    /// CSV files, folders of them, phone-app exports (recognised by header or folder), pipes
    /// and `-` (standard input).
    case files([String])
    /// A manifest (`Manifest`) and where its source files are.
    case manifest(file: String, dataRoot: String?, allowOutsideDataRoot: Bool)
  }

  let kind: Kind
  /// How CSV files are read. A manifest sets each source's own options instead; of these it
  /// takes only `subjects` and `excludeSubjects`, as source-prefixed subjects
  /// (`motionsense:17-20`) applied after loading.
  public var options: LoadOptions

  /// CSV files, folders (whose `.csv` files are all read, in natural order), phone-app
  /// recordings, pipes and `-` (standard input).
  public init(files paths: [String], options: LoadOptions = LoadOptions()) {
    kind = .files(paths)
    self.options = options
  }

  /// A dataset manifest.
  ///
  /// - Parameters:
  ///   - dataRoot: Overrides the manifest's data root (`--data-root`).
  ///   - allowOutsideDataRoot: Read source files outside the data root too (absolute paths,
  ///     `..` beyond it, symbolic links out of it); by default they are refused.
  ///   - options: Only `subjects` and `excludeSubjects` apply (see `options`).
  public init(
    manifest file: String, dataRoot: String? = nil, allowOutsideDataRoot: Bool = false,
    options: LoadOptions = LoadOptions()
  ) {
    kind = .manifest(file: file, dataRoot: dataRoot, allowOutsideDataRoot: allowOutsideDataRoot)
    self.options = options
  }

  /// Called now and then while loading with (work done, work total): bytes of CSV files, or
  /// sources of a manifest.
  public typealias Progress = (_ done: Int, _ total: Int) -> Void

  /// Loads the data whole.
  ///
  /// With `options.modelSampleRateHz`, CSV files are read at their own rate and, when any
  /// recording is off that rate, parsed again resampled to it (`WholeLoad.resampled`); each
  /// input is read once, so a pipe or `-` works too.
  ///
  /// - Throws: `CSVError` naming file, line and column, with a hint; `InputAdapterError` when
  ///   `options.modelRecipes` needs a column the data lacks; `LimitError` for a resampling out
  ///   of bounds; `ManifestError` naming the manifest file and key.
  public func load(progress: Progress? = nil) throws -> WholeLoad {
    switch kind {
    case .files(let paths):
      guard let rate = options.modelSampleRateHz else {
        return WholeLoad(try DatasetLoader.load(paths, options: options, progress: progress))
      }
      return try Self.load(paths, atModelRate: rate, options: options, progress: progress)
    case .manifest(let file, let dataRoot, let allowOutsideDataRoot):
      var loaded = try DatasetLoader.load(
        manifest: file, dataRoot: dataRoot, allowOutsideDataRoot: allowOutsideDataRoot,
        progress: progress)
      loaded.result = try keepingSubjects(loaded.result)
      return loaded
    }
  }

  /// This source read as a model's input: channels computed by the model's `recipes` (each
  /// raw input they read comes from the files by the rule the stream applies, so a Core
  /// Motion device-motion file feeds a raw-acceleration model here as it does in `motus
  /// stream`), at its own rate unless a recording is more than 2 % off `sampleRateHz`, then
  /// resampled to it (`LoadOptions.modelSampleRateHz`). A manifest fixes its own channels
  /// and rate.
  ///
  /// - Precondition: `options.channelPatterns` is empty (the channels are the recipes').
  /// - Throws: `DataSourceError.sampleRateMismatch` when `options.sampleRateHz` asks for
  ///   another rate than `sampleRateHz`.
  public func reading(recipes: [ChannelRecipe], sampleRateHz: Double) throws -> DataSource {
    precondition(options.channelPatterns.isEmpty, "channels come from the model's recipes")
    if let requested = options.sampleRateHz, !Self.isModelRate(requested, sampleRateHz) {
      throw DataSourceError.sampleRateMismatch(requestedHz: requested, modelHz: sampleRateHz)
    }
    var source = self
    source.options.modelRecipes = recipes
    source.options.modelSampleRateHz = sampleRateHz
    return source
  }

  /// What `load` finds, less the samples: CSV files are read a session at a time and only
  /// each recording's outline kept (`DatasetLoader.loadSessions`), else the data is loaded
  /// whole and outlined.
  public func outline(progress: Progress? = nil) throws -> LoadOutline {
    if case .files(let paths) = kind, options.modelSampleRateHz == nil {
      return try DatasetLoader.loadOutline(paths, options: options, progress: progress)
    }
    return LoadOutline(try load(progress: progress).result)
  }

  /// Every file a load will read (CSV files, a manifest and its sources' files), so that an
  /// output can be refused when it is one of them. Paths that do not resolve are left out of
  /// the expansion: loading reports them.
  public func inputFiles() -> [String] {
    switch kind {
    case .files(let paths):
      return (try? DatasetLoader.expand(paths)) ?? paths
    case .manifest(let file, let dataRoot, _):
      var files = [file]
      guard let parsed = try? Manifest.read(file) else { return files }
      let root = parsed.resolvedDataRoot(manifestFile: file, dataRoot: dataRoot)
      for source in parsed.sources {
        let paths = source.files.map { (root as NSString).appendingPathComponent($0) }
        files += (try? DatasetLoader.expand(paths)) ?? paths
      }
      return files
    }
  }

  /// The CSV paths when the source is CSV files and may be windowed as it is read: not when
  /// it is read for a model at a rate asked for (the whole data is then resampled to it).
  var streamablePaths: [String]? {
    guard case .files(let paths) = kind,
      options.modelSampleRateHz == nil || options.sampleRateHz == nil
    else { return nil }
    return paths
  }

  /// `result` with the manifest's subject filters applied (source-prefixed subjects).
  ///
  /// - Throws: `ManifestError.noRecordingLeft` when they leave nothing.
  private func keepingSubjects(_ result: LoadResult) throws -> LoadResult {
    let filtered = result.keepingSubjects(options.subjects, dropping: options.excludeSubjects)
    guard !filtered.dataset.recordings.isEmpty else { throw ManifestError.noRecordingLeft }
    return filtered
  }

  /// `paths` read whole once, loaded at their own rate and, when any recording is more than
  /// 2 % off `rate` (or `options.sampleRateHz` asks for it), resampled to `rate`.
  private static func load(
    _ paths: [String], atModelRate rate: Double, options: LoadOptions, progress: Progress?
  ) throws -> WholeLoad {
    var options = options
    let inputs = try DatasetLoader.read(paths, options: options)
    var result = try DatasetLoader.load(inputs: inputs, options: options, progress: progress)
    var resampled = options.sampleRateHz != nil
    if !resampled,
      result.dataset.recordings.contains(where: { !isModelRate($0.sampleRateHz, rate) })
    {
      options.sampleRateHz = rate
      result = try DatasetLoader.load(inputs: inputs, options: options, progress: progress)
      resampled = true
    }
    var loaded = WholeLoad(result)
    loaded.resampled = resampled
    return loaded
  }

  /// Within the 2 % that `WindowTable.make` accepts.
  package static func isModelRate(_ rate: Double, _ modelRate: Double) -> Bool {
    abs(rate - modelRate) <= 0.02 * modelRate
  }
}
