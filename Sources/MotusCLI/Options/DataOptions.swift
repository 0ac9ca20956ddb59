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
    if let sampleRate { try ValidationError.checkSampleRate(sampleRate, flag: "--sample-rate") }
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

  /// The data the flags describe, for the library to load (`DataSource`).
  ///
  /// - Parameters:
  ///   - requireLabels: `false` for commands that also read unlabelled data.
  ///   - checkValueRange: `LoadOptions.checkValueRange` (CSV paths only).
  func source(requireLabels: Bool = true, checkValueRange: Bool = true) throws -> DataSource {
    var options = try loadOptions()
    options.requireLabels = requireLabels
    options.checkValueRange = checkValueRange
    guard let manifest else { return DataSource(files: paths, options: options) }
    return DataSource(
      manifest: manifest, dataRoot: dataRoot, allowOutsideDataRoot: allowOutsideDataRoot,
      options: options)
  }

  /// Every file the command will read (`DataSource.inputFiles`), so that an output can be
  /// refused when it is one of them.
  func inputFiles() throws -> [String] { try source().inputFiles() }

  /// Splits a comma-separated list, trimming spaces and dropping empty items.
  static func list(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }
}
