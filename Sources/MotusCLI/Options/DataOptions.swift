// Flags shared by every command that reads labelled CSV data.

import ArgumentParser
import Foundation
import Motus

struct DataOptions: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "CSV files (gzip-compressed .csv.gz too), or folders whose .csv and .csv.gz files are "
        + "all read, or phone-app recordings.",
      discussion: "Layout: one row per sample with a header such as "
        + "`timestamp,session,subject,label,<channels>` (see ../shared/datasets/README.md); "
        + "or a phone-app export, recognised by its header or folder: a Sensor Logger or "
        + "phyphox folder, a SensorLog, phyphox, Physics Toolbox or AndroSensor CSV (label it "
        + "with --label or --label-map; `motus inspect` shows what was converted). gzip input "
        + "(a .csv.gz file, gzip piped into `-`) is read as its text, inflated as it is read.",
      valueName: "path"))
  var paths: [String] = []

  @Option(
    help: ArgumentHelp(
      "A dataset manifest (JSON) composing several sources; replaces the CSV paths.",
      discussion: "See datasets/README.md, e.g. `--manifest datasets/six-class.json`. The "
        + "manifest sets channels, labels, signs and the rate; --subjects and --exclude-subjects "
        + "take source-prefixed subjects (motionsense:17-20, gains_pushup:Eric).",
      valueName: "file"))
  var manifest: String?

  @Option(
    help: ArgumentHelp(
      "Folder the manifest's file paths are relative to (default: the manifest's dataRoot, "
        + "relative to the manifest's folder).", valueName: "folder"))
  var dataRoot: String?

  @Flag(
    help: ArgumentHelp(
      "Let a manifest read files outside its data root (absolute paths, '..', links).",
      discussion: "Without it such paths are refused, so a manifest from elsewhere cannot "
        + "make a command read arbitrary files."))
  var allowOutsideDataRoot = false

  @OptionGroup var columns: InputColumnOptions
  var timeColumn: String { columns.timeColumn }
  var negateAcceleration: Bool { columns.negateAcceleration }

  @Option(
    help: ArgumentHelp(
      "Column naming the session (one continuous recording).",
      discussion: "Without it (or with an empty name) each file is one session.",
      valueName: "name"))
  var sessionColumn = "session"

  @Option(
    help: ArgumentHelp(
      "Column naming the subject; without it the subject is 'unknown'.", valueName: "name"))
  var subjectColumn = "subject"

  @Option(help: ArgumentHelp("Column holding each row's activity label.", valueName: "name"))
  var labelColumn = "label"

  @Option(
    help: ArgumentHelp(
      "Channels to use: comma-separated names or globs (default: every numeric column).",
      discussion: "Example: `userAcceleration.*,rotationRate.*`. Derived channels: "
        + "`acceleration.*` is gravity + userAcceleration when the file has no raw "
        + "acceleration; `|group|` is the magnitude of group.x/y/z (e.g. `|userAcceleration|`).",
      valueName: "patterns"))
  var channels: String?

  @Option(
    help: ArgumentHelp(
      "Rename labels, e.g. `sitting=stationary,standing=stationary`.",
      discussion: "Every label named on the left must occur in the data.",
      valueName: "from=to,..."))
  var map: String?

  @Option(
    help: ArgumentHelp(
      "Labels to keep after --map (comma-separated); other rows are dropped.",
      valueName: "labels"))
  var labels: String?

  @Option(
    help: ArgumentHelp(
      "Subjects to keep: numbers, ranges and names, e.g. `1-16` or `1-3,7`.",
      valueName: "list"))
  var subjects: String?

  @Option(help: ArgumentHelp("Subjects to leave out, e.g. `17-20`.", valueName: "list"))
  var excludeSubjects: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Resample every recording to this rate in Hz (anti-alias low-pass, then linear "
        + "interpolation).", valueName: "hz"))
  var sampleRate: Double?

  @OptionGroup var gaps: GapOptions

  @Option(
    help: ArgumentHelp(
      "Activity of every phone-app recording given (Sensor Logger, SensorLog, phyphox, Physics "
        + "Toolbox, AndroSensor), e.g. `walking`.",
      discussion: "The apps write no label. Long-layout CSV files keep their own label column.",
      valueName: "activity"))
  var label: String?

  @Option(
    help: ArgumentHelp(
      "Activity per phone-app recording: `name=activity,...`, where name is the recording's "
        + "folder or file name (or a folder above it).",
      discussion: "Example: `--label-map 'ride-home=cycling,bus-2024-05=automotive'`. Recordings "
        + "it does not name take --label. Every name must match a recording given.",
      valueName: "name=activity,..."))
  var labelMap: String?

  /// Whether CSV paths or a manifest were given.
  var hasData: Bool { manifest != nil || !paths.isEmpty }

  /// Refuses a command line with no data; every command but `export` (whose data is optional)
  /// calls it in its own `validate`.
  func requireData() throws {
    guard hasData else {
      throw ValidationError("Give at least one CSV file or folder, or --manifest FILE.")
    }
  }

  func validate() throws {
    if manifest != nil, label != nil || labelMap != nil {
      throw ValidationError(
        "'--label' and '--label-map' label phone-app recordings given as paths, not a manifest.")
    }
    if let label, label.trimmingCharacters(in: .whitespaces).isEmpty {
      throw ValidationError("'--label' must name an activity, e.g. --label walking.")
    }
    if manifest != nil {
      guard paths.isEmpty else {
        throw ValidationError("Give either CSV paths or --manifest, not both.")
      }
      // The manifest owns these; ignoring them silently would train on other data than asked.
      let owned: [(String, Bool)] = [
        ("--channels", channels != nil), ("--map", map != nil), ("--labels", labels != nil),
        ("--sample-rate", sampleRate != nil), ("--negate-acceleration", negateAcceleration),
      ]
      if let flag = owned.first(where: { $0.1 })?.0 {
        throw ValidationError(
          "'\(flag)' does not combine with --manifest: the manifest sets it per source. "
            + "Edit the manifest, or give CSV paths instead.")
      }
    } else {
      if dataRoot != nil { throw ValidationError("'--data-root' needs --manifest.") }
      if allowOutsideDataRoot {
        throw ValidationError("'--allow-outside-data-root' needs --manifest.")
      }
    }
    if let sampleRate, !Limits.sampleRateHz.contains(sampleRate) {
      throw ValidationError(
        "'--sample-rate' must be within \(Limits.sampleRateHz.lowerBound)..."
          + "\(Limits.sampleRateHz.upperBound) Hz, the rates inertial sensors record at "
          + "(higher ones only multiply memory and time), got \(sampleRate).")
    }
    if let channels, Self.list(channels).isEmpty {
      throw ValidationError("'--channels' names no channel.")
    }
    if let labels, Self.list(labels).isEmpty {
      throw ValidationError("'--labels' names no label.")
    }
    do {
      _ = try loadOptions()
    } catch let error as SubjectFilter.ParseError {
      throw ValidationError(error.description)
    } catch let error as LabelMap.ParseError {
      throw ValidationError(error.description)
    }
  }

  /// The library options these flags describe.
  func loadOptions() throws -> LoadOptions {
    var options = LoadOptions()
    options.timeColumn = timeColumn
    options.sessionColumn = sessionColumn.isEmpty ? nil : sessionColumn
    options.subjectColumn = subjectColumn.isEmpty ? nil : subjectColumn
    options.labelColumn = labelColumn.isEmpty ? nil : labelColumn
    options.channelPatterns = channels.map(Self.list) ?? []
    options.negateAcceleration = negateAcceleration
    if let map { options.labelMap = try LabelMap.parse(map, flag: "--map") }
    options.keepLabels = labels.map(Self.list)
    if let subjects { options.subjects = try SubjectFilter(parsing: subjects, flag: "--subjects") }
    if let excludeSubjects {
      options.excludeSubjects = try SubjectFilter(
        parsing: excludeSubjects, flag: "--exclude-subjects")
    }
    options.sampleRateHz = sampleRate
    options.gapFactor = gaps.gapFactor
    options.minimumGapSeconds = gaps.minGap
    options.appLabels = AppExportLabels(
      label: label?.trimmingCharacters(in: .whitespaces),
      byName: try labelMap.map { try LabelMap.parse($0, flag: "--label-map") } ?? [:])
    return options
  }

  /// Loads the data the flags describe.
  ///
  /// - Parameters:
  ///   - requireLabels: `false` for commands that also read unlabelled data.
  ///   - progress: Forwarded to `DatasetLoader.load`.
  ///   - checkValueRange: `LoadOptions.checkValueRange` (CSV paths only).
  func load(
    requireLabels: Bool = true, checkValueRange: Bool = true,
    progress: ((Int, Int) -> Void)? = nil
  ) throws -> LoadResult {
    try loadWeighted(
      requireLabels: requireLabels, checkValueRange: checkValueRange, progress: progress
    ).result
  }

  /// What `load` finds, less the samples: CSV files are read a session at a time and only
  /// each recording's outline kept (`DatasetLoader.loadOutline`).
  func loadOutline(
    requireLabels: Bool = true, checkValueRange: Bool = true,
    progress: ((Int, Int) -> Void)? = nil
  ) throws -> LoadOutline {
    if manifest != nil {
      return LoadOutline(
        try load(requireLabels: requireLabels, checkValueRange: checkValueRange, progress: progress)
      )
    }
    return try DatasetLoader.loadOutline(
      paths, options: loadOptions(requireLabels: requireLabels, checkValueRange: checkValueRange),
      progress: progress)
  }

  /// `load`, plus each source's training weight from a manifest (empty for CSV paths).
  func loadWeighted(
    requireLabels: Bool = true, checkValueRange: Bool = true,
    progress: ((Int, Int) -> Void)? = nil
  ) throws -> (result: LoadResult, sourceWeights: [String: Double]) {
    if manifest != nil {
      let loaded = try loadManifest(progress: progress)
      return (try filterSubjects(loaded.result), loaded.sourceWeights)
    }
    let options = try loadOptions(requireLabels: requireLabels, checkValueRange: checkValueRange)
    return (try DatasetLoader.load(paths, options: options, progress: progress), [:])
  }

  /// `loadOptions()` with whether labels are required and values held to their range.
  private func loadOptions(requireLabels: Bool, checkValueRange: Bool) throws -> LoadOptions {
    var options = try loadOptions()
    options.requireLabels = requireLabels
    options.checkValueRange = checkValueRange
    return options
  }

  /// Applies `--subjects` / `--exclude-subjects` to manifest data (subjects are
  /// source-prefixed there, e.g. `motionsense:17-20`).
  private func filterSubjects(_ result: LoadResult) throws -> LoadResult {
    let keep = try subjects.map { try SubjectFilter(parsing: $0, flag: "--subjects") }
    let drop = try excludeSubjects.map {
      try SubjectFilter(parsing: $0, flag: "--exclude-subjects")
    }
    let filtered = result.keepingSubjects(keep, dropping: drop)
    guard !filtered.dataset.recordings.isEmpty else {
      throw ToolError(
        "no recording of the manifest is left after --subjects/--exclude-subjects.",
        hint: "subjects are source-prefixed there: e.g. --subjects motionsense:1-16,qrowd:1-2 "
          + "(motus inspect --manifest FILE lists them).")
    }
    return filtered
  }

  /// Loads `--manifest` (with its weights and known repetition counts).
  ///
  /// - Throws: `ToolError` carrying the manifest error (file, key, hint).
  func loadManifest(progress: ((Int, Int) -> Void)? = nil) throws -> ManifestLoadResult {
    guard let manifest else {
      throw ToolError("no --manifest given.", hint: "add --manifest FILE.")
    }
    return try DatasetLoader.load(
      manifest: manifest, dataRoot: dataRoot, allowOutsideDataRoot: allowOutsideDataRoot,
      progress: progress)
  }

  /// Every file the command will read (CSV files, the manifest and its sources), so that an
  /// output can be refused when it is one of them. Paths that do not resolve are left out:
  /// loading reports them.
  func inputFiles() -> [String] {
    guard let manifest else { return (try? DatasetLoader.expand(paths)) ?? paths }
    return Self.inputFiles(manifest: manifest, dataRoot: dataRoot)
  }

  /// A manifest and every file its sources read (the manifest alone when it does not parse).
  static func inputFiles(manifest: String, dataRoot: String?) -> [String] {
    var files = [manifest]
    guard let parsed = try? Manifest.read(manifest) else { return files }
    let root = parsed.resolvedDataRoot(manifestFile: manifest, dataRoot: dataRoot)
    for source in parsed.sources {
      let paths = source.files.map { (root as NSString).appendingPathComponent($0) }
      files += (try? DatasetLoader.expand(paths)) ?? paths
    }
    return files
  }

  /// Splits a comma-separated list, trimming spaces and dropping empty items.
  static func list(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }
}
