// Loading a manifest: decode and check the JSON -> load each source with the CSV loader at
// its own rate -> prefix subjects and sessions with the source name -> map labels into the
// manifest vocabulary -> join clips -> resample to the manifest rate -> merge.

import Foundation
import MotusData
import MotusOutput

extension Manifest {
  /// Reads and checks a manifest file (no data is read).
  ///
  /// - Throws: `ManifestError` naming `file` and the offending key.
  public static func read(_ file: String) throws -> Manifest {
    try readWithText(file).manifest
  }

  /// `read`, with the manifest's text (to place later errors at their key).
  static func readWithText(_ file: String) throws -> (manifest: Manifest, bytes: [UInt8]) {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(file, limit: maximumFileBytes)
    } catch let error as InputFileError {
      throw ManifestError.unreadable(file: error.file, reason: error.reason)
    }
    return (try decode(bytes, file: InputFile.displayName(file)), withoutByteOrderMark(bytes))
  }

  /// `bytes` with a UTF-8 byte-order mark blanked.
  static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return bytes }
    return [0x20, 0x20, 0x20] + bytes.dropFirst(3)
  }

  /// Decodes and checks manifest text (no file is read): `read` without the file.
  ///
  /// - Throws: `ManifestError` naming `file`, the key, and its line and column.
  public static func decode(_ bytes: [UInt8], file: String) throws -> Manifest {
    // A UTF-8 byte-order mark (an editor's) is not part of the JSON; blanked, not removed, so
    // that lines and columns stay those of the file.
    let bytes = withoutByteOrderMark(bytes)
    if let encoding = TextEncoding.problem(bytes) {
      throw ManifestError.invalidJSON(
        file: file, key: "(top)",
        reason: "the file looks like \(encoding), not UTF-8 JSON text")
    }
    if let syntax = JSONLocator.syntaxError(in: bytes) {
      throw ManifestError.invalidJSON(
        file: file, key: "(top)", reason: "not valid JSON: \(syntax.reason)", at: syntax.position)
    }
    try checkKeys(bytes, file: file)
    let manifest: Manifest
    do {
      manifest = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
    } catch let error as DecodingError {
      throw Self.describe(error, file: file, bytes: bytes)
    } catch {
      throw ManifestError.invalidJSON(file: file, key: "(top)", reason: "\(error)")
    }
    do {
      try manifest.checkBounds(file: file)
      try manifest.check(file: file)
    } catch let error as ManifestError {
      throw error.locating(in: bytes)
    }
    return manifest
  }

  static func describe(
    _ error: DecodingError, file: String, bytes: [UInt8] = []
  ) -> ManifestError {
    func path(_ keys: [CodingKey]) -> String { JSONKeyPath.text(keys) }
    func at(_ keys: [CodingKey]) -> JSONPosition? { JSONLocator.position(of: keys, in: bytes) }
    switch error {
    case .keyNotFound(let key, let context):
      let parent = path(context.codingPath)
      let full = parent == "(top)" ? key.stringValue : "\(parent).\(key.stringValue)"
      return .invalidJSON(
        file: file, key: full, reason: "required key is missing", at: at(context.codingPath))
    case .typeMismatch(let type, let context):
      return .invalidJSON(
        file: file, key: path(context.codingPath), reason: "expected a value of type \(type)",
        at: at(context.codingPath))
    case .valueNotFound(let type, let context):
      return .invalidJSON(
        file: file, key: path(context.codingPath), reason: "expected \(type), found null",
        at: at(context.codingPath))
    case .dataCorrupted(let context):
      let underlying = context.underlyingError.map { " (\($0))" } ?? ""
      return .invalidJSON(
        file: file, key: path(context.codingPath),
        reason: "the value is not one this key takes (\(context.debugDescription)\(underlying))",
        at: at(context.codingPath))
    @unknown default:
      return .invalidJSON(file: file, key: "(top)", reason: "\(error)")
    }
  }

  /// Checks values the JSON types cannot: rates, empty lists, label targets, weights.
  public func check(file: String) throws {
    func bad(_ key: String, _ reason: String, _ hint: String) -> ManifestError {
      .invalidValue(file: file, key: key, reason: reason, hint: hint)
    }
    guard sampleRateHz > 0 && sampleRateHz.isFinite else {
      throw bad("sampleRateHz", "must be a positive rate in Hz, got \(sampleRateHz)", "e.g. 15")
    }
    guard !channels.isEmpty else {
      throw bad("channels", "names no channel", "e.g. [\"acceleration.x\", \"|acceleration|\"]")
    }
    guard !labels.isEmpty, Set(labels).count == labels.count else {
      throw bad("labels", "must be a non-empty list without repeats", "list each class once")
    }
    guard Set(vocabulary).count == vocabulary.count else {
      throw bad(
        "negativeLabels", "must not repeat a label or name a class",
        "list each activity that is none of the classes once, e.g. [\"other\"]")
    }
    guard !sources.isEmpty else {
      throw bad("sources", "names no source", "add at least one source object")
    }
    var names: Set<String> = []
    for (i, source) in sources.enumerated() {
      let key = "sources[\(i)]"
      try Self.check(source, key: key, vocabulary: vocabulary, file: file, names: &names)
    }
  }

  /// One source's own fields, `key` naming it in errors; its name must not be in `names`, to
  /// which it is added.
  private static func check(
    _ source: Source, key: String, vocabulary: [String], file: String, names: inout Set<String>
  ) throws {
    func bad(_ key: String, _ reason: String, _ hint: String) -> ManifestError {
      .invalidValue(file: file, key: key, reason: reason, hint: hint)
    }
    guard !source.name.isEmpty, !source.name.contains(":") else {
      throw bad("\(key).name", "'\(source.name)' must be non-empty and free of ':'", "e.g. qrowd")
    }
    guard names.insert(source.name).inserted else {
      throw bad("\(key).name", "'\(source.name)' is used twice", "give each source its own name")
    }
    guard !source.files.isEmpty else {
      throw bad("\(key).files", "names no file", "paths are relative to the data root")
    }
    guard !source.channels.isEmpty else {
      throw bad("\(key).channels", "names no channel", "patterns as --channels takes them")
    }
    guard !source.labels.isEmpty else {
      throw bad("\(key).labels", "maps no label", "e.g. {\"walk\": \"walking\"}")
    }
    for (from, to) in source.labels.sorted(by: { $0.key < $1.key })
    where !vocabulary.contains(to) {
      throw bad(
        "\(key).labels.\(from)", "'\(to)' is not in the manifest's labels or negativeLabels",
        "use one of \(vocabulary.joined(separator: ", "))")
    }
    if let label = source.label, source.labels[label] == nil {
      throw bad(
        "\(key).label", "'\(label)' is not a key of the source's labels",
        "map it, e.g. \"labels\": {\"\(label)\": \"automotive\"}")
    }
    if let separator = source.placementSeparator, separator.isEmpty {
      throw bad("\(key).placementSeparator", "is empty", "e.g. \"_\", or leave it out")
    }
    if let weight = source.weight, !(weight > 0 && weight.isFinite) {
      throw bad("\(key).weight", "must be a positive number, got \(weight)", "default is 1")
    }
    for (flag, text) in [
      ("subjects", source.subjects), ("excludeSubjects", source.excludeSubjects),
    ] {
      guard let text else { continue }
      do {
        _ = try SubjectFilter(parsing: text, flag: flag)
      } catch let error as SubjectFilter.ParseError {
        throw bad("\(key).\(flag)", error.description, "e.g. \"1-16\" or \"1,3,Eric\"")
      }
    }
    if let separator = source.joinClips?.runSeparator, separator.isEmpty {
      throw bad("\(key).joinClips.runSeparator", "is empty", "e.g. \"_\", or leave it out")
    }
  }

  /// The folder data paths are relative to: `dataRoot` when given, else the manifest's
  /// `dataRoot` (or `Manifest.defaultDataRoot`) relative to the manifest's folder.
  public func resolvedDataRoot(manifestFile: String, dataRoot: String?) -> String {
    if let dataRoot { return dataRoot }
    let folder = PathName.folder(manifestFile)
    let relative = self.dataRoot ?? Manifest.defaultDataRoot
    if relative.hasPrefix("/") { return relative }
    return ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(relative)
  }
}

extension DatasetLoader {
  /// Loads every source a manifest names into one dataset.
  ///
  /// - Parameters:
  ///   - file: The manifest file (argument label `manifest`).
  ///   - dataRoot: Overrides the manifest's data root (`--data-root`).
  ///   - progress: Called with (sources done, sources total).
  /// - Returns: The merged dataset with the manifest's weights and known repetition counts.
  /// - Throws: `ManifestError` naming the manifest file and key, with a hint.
  ///   - allowOutsideDataRoot: Read source files outside the data root too (absolute paths,
  ///     `..` beyond it, symbolic links out of it); by default they are refused.
  static func load(
    manifest file: String, dataRoot: String? = nil, allowOutsideDataRoot: Bool = false,
    progress: ((_ done: Int, _ total: Int) -> Void)? = nil
  ) throws -> WholeLoad {
    let (manifest, text) = try Manifest.readWithText(file)
    do {
      return try load(
        manifest, file: file, dataRoot: dataRoot, allowOutsideDataRoot: allowOutsideDataRoot,
        progress: progress)
    } catch let error as ManifestError {
      throw error.locating(in: text)
    }
  }

  private static func load(
    _ manifest: Manifest, file: String, dataRoot: String?, allowOutsideDataRoot: Bool,
    progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws -> WholeLoad {
    let root = manifest.resolvedDataRoot(manifestFile: file, dataRoot: dataRoot)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw ManifestError.invalidValue(
        file: file, key: "dataRoot", reason: "data root '\(root)' is not a folder",
        hint: "pass --data-root ../shared/datasets, or fix the manifest's dataRoot")
    }
    if dataRoot == nil {
      try manifest.checkDataRoot(root, file: file, allowOutside: allowOutsideDataRoot)
    }
    // Every source's paths are checked before any is read.
    let paths = try manifest.sources.enumerated().map { i, source in
      try source.files.enumerated().map { j, path in
        try Manifest.confinedPath(
          path, root: root, allowOutside: allowOutsideDataRoot, file: file,
          key: "sources[\(i)].files[\(j)]")
      }
    }
    try Self.checkDistinct(manifest, paths: paths, root: root, file: file)
    let target = manifest.sampleRateHz
    var recordings: [Recording] = []
    var report = LoadReport()
    var knownRepetitions: [String: Int] = [:]
    var weights: [String: Double] = [:]
    for (i, source) in manifest.sources.enumerated() {
      progress?(i, manifest.sources.count)
      weights[source.name] = source.weight ?? 1
      let loaded = try Self.loadSource(
        source, key: "sources[\(i)]", paths: paths[i], manifest: manifest, file: file)
      recordings += loaded.recordings
      knownRepetitions.merge(loaded.clipCounts) { a, _ in a }
      report.merge(loaded.report, source: source.name)
    }
    progress?(manifest.sources.count, manifest.sources.count)

    let labels = Self.keepUsedLabels(
      manifest.vocabulary, recordings: &recordings, rateHz: target, report: &report)
    guard !recordings.isEmpty else {
      throw ManifestError.invalidValue(
        file: file, key: "sources", reason: "no recording is left after mapping and filters",
        hint: "check each source's labels and subjects")
    }
    report.notes.append(
      "manifest \(file): \(manifest.sources.count) sources resampled to \(target) Hz; training "
        + "weights (multiply each window's loss term, with class weights) "
        + manifest.sources.map { "\($0.name)=\($0.weight ?? 1)" }.joined(separator: ", "))
    let recipes = Self.canonicalRecipes(channels: manifest.channels)
    let negatives = Set(manifest.negativeLabels ?? [])
    let dataset = Dataset(
      channels: manifest.channels, labels: labels, recordings: recordings,
      negativeLabels: labels.filter(negatives.contains))
    return WholeLoad(
      result: LoadResult(dataset: dataset, recipes: recipes, report: report),
      sourceWeights: weights, knownRepetitions: knownRepetitions, manifest: manifest,
      manifestFile: file)
  }

  /// One source: loaded with its own options, subjects and sessions prefixed with its name,
  /// labels indexed in the manifest's vocabulary, clips joined, resampled to the manifest's
  /// rate; with its load report and the repetitions of its joined clips.
  private static func loadSource(
    _ source: Manifest.Source, key: String, paths: [String], manifest: Manifest, file: String
  ) throws -> (recordings: [Recording], report: LoadReport, clipCounts: [String: Int]) {
    let loaded: LoadResult
    do {
      loaded = try DatasetLoader.load(paths, options: source.loadOptions(key: key))
    } catch let error as CSVError {
      // The manifest, not the user, named these files: nothing of their text is quoted.
      throw ManifestError.sourceFailed(
        file: file, key: "\(key).files", reason: error.descriptionWithoutFileText)
    }
    guard loaded.dataset.channels == manifest.channels else {
      throw ManifestError.invalidValue(
        file: file, key: "\(key).channels",
        reason: "gives channels \(loaded.dataset.channels), the manifest wants "
          + "\(manifest.channels)",
        hint: "list patterns whose outputs match the manifest's channels, in order")
    }
    let vocabulary = manifest.vocabulary
    let labelIndex = loaded.dataset.labels.map { Int32(vocabulary.firstIndex(of: $0) ?? -1) }
    var pieces: [Recording] = loaded.dataset.recordings.map { r in
      var r = r
      r.subject = "\(source.name):\(r.subject)"
      r.session = "\(source.name):\(r.session)"
      r.labelIndices = r.labelIndices.map { labelIndex[Int($0)] }
      return r
    }
    var clipCounts: [String: Int] = [:]
    if let join = source.joinClips {
      let joined = Self.join(
        pieces, by: join, vocabulary: vocabulary, uncounted: Set(manifest.negativeLabels ?? []))
      pieces = joined.recordings
      if join.oneRepetitionPerClip ?? true { clipCounts = joined.clipCounts }
    }
    let recordings = try pieces.compactMap { r in
      let what = "manifest \(file), \(key): session '\(Excerpt.text(r.session))'"
      return try Self.resample(r, to: manifest.sampleRateHz, what: what)
    }
    return (recordings, loaded.report, clipCounts)
  }

  /// Refuses a file that two keys lead to (two sources, one file listed twice, a folder and a
  /// file in it, a link), by the rule command-line paths follow (`DistinctInputs`).
  ///
  /// - Parameter paths: Each source's files, under the data root.
  private static func checkDistinct(
    _ manifest: Manifest, paths: [[String]], root: String, file: String
  ) throws {
    var distinct = DistinctInputs(root: root)
    for (i, source) in manifest.sources.enumerated() {
      let options = source.loadOptions(key: "sources[\(i)]")
      for (j, path) in paths[i].enumerated() {
        let key = "sources[\(i)].files[\(j)]"
        let found: [FoundInput]
        do {
          found = try collect(path, options: options)
        } catch let error as CSVError {
          throw ManifestError.sourceFailed(
            file: file, key: key, reason: error.descriptionWithoutFileText)
        }
        for input in found {
          guard let conflict = distinct.insert(input, origin: key, isKey: true) else {
            continue
          }
          throw Self.conflictError(conflict, file: file, key: key)
        }
      }
    }
  }

  /// The error for two keys that lead to one file, or to a file and its gzip copy.
  private static func conflictError(_ conflict: DistinctInputs.Conflict, file: String, key: String)
    -> ManifestError
  {
    let (earlier, again) = (conflict.earlier.description, conflict.again.description)
    guard conflict.isTwin else {
      return ManifestError.invalidValue(
        file: file, key: key,
        reason: "\(again) is the file \(earlier) names already (the same device and inode): it "
          + "would be read, and its rows counted, twice",
        hint: "list each file once, in one source; a folder already reads every .csv file in it")
    }
    return ManifestError.invalidValue(
      file: file, key: key,
      reason: "\(again) and \(earlier) are one CSV file and its gzip copy (what `gzip -k` "
        + "leaves): both would be read, and the rows counted twice",
      hint: CSVError.compressedTwinHint)
  }

  /// Keeps the manifest labels that have samples, in manifest order, re-indexes `recordings`
  /// and records each label's samples and seconds at `rateHz` in `report`.
  private static func keepUsedLabels(
    _ vocabulary: [String], recordings: inout [Recording], rateHz: Double, report: inout LoadReport
  ) -> [String] {
    var used = [Bool](repeating: false, count: vocabulary.count)
    for r in recordings { for l in r.labelIndices { used[Int(l)] = true } }
    let kept = vocabulary.indices.filter { used[$0] }
    var newIndex = [Int32](repeating: -1, count: vocabulary.count)
    for (k, old) in kept.enumerated() { newIndex[old] = Int32(k) }
    let labels = kept.map { vocabulary[$0] }
    var seconds = [Double](repeating: 0, count: labels.count)
    var counts = [Int](repeating: 0, count: labels.count)
    for i in recordings.indices {
      recordings[i].labelIndices = recordings[i].labelIndices.map { newIndex[Int($0)] }
      for l in recordings[i].labelIndices {
        seconds[Int(l)] += 1 / rateHz
        counts[Int(l)] += 1
      }
    }
    for (i, label) in labels.enumerated() {
      report.labelDurationsSeconds[label] = seconds[i]
      report.labelSampleCounts[label] = counts[i]
    }
    report.recordingCount = recordings.count
    return labels
  }

  /// Recipes over the merged channels: copies, except `|group|` recomputed from `group.x/y/z`
  /// when those are channels too (so a stream needs only the axes).
  static func canonicalRecipes(channels: [String]) -> [ChannelRecipe] {
    let names = Set(channels)
    return channels.map { name in
      if name.hasPrefix("|") && name.hasSuffix("|") && name.count > 2 {
        let group = String(name.dropFirst().dropLast())
        let axes = ChannelSelector.axes.map { "\(group).\($0)" }
        if axes.allSatisfy(names.contains) {
          return ChannelRecipe(name: name, operation: .magnitude, inputs: axes)
        }
      }
      return .copy(name)
    }
  }

  /// Joins clips per (subject, first label, run) in natural session order at the clips'
  /// median rate. Returns the joined recordings and each one's clip count, except for
  /// recordings of an `uncounted` label (a negative label's clips are not repetitions).
  static func join(
    _ clips: [Recording], by rule: Manifest.ClipJoin, vocabulary: [String],
    uncounted: Set<String> = []
  ) -> (recordings: [Recording], clipCounts: [String: Int]) {
    struct Key: Hashable {
      var subject: String
      var label: Int32
      var run: String
    }
    var groups: [Key: [Recording]] = [:]
    var order: [Key] = []
    for clip in clips {
      guard let label = clip.labelIndices.first else { continue }
      var run = ""
      if let separator = rule.runSeparator,
        let range = clip.session.range(of: separator, options: .backwards)
      {
        run = String(clip.session[..<range.lowerBound])
      }
      let key = Key(subject: clip.subject, label: label, run: run)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(clip)
    }
    var out: [Recording] = []
    var counts: [String: Int] = [:]
    for key in order {
      guard let members = groups[key]?.sorted(by: { naturalOrder($0.session, $1.session) }),
        let first = members.first
      else { continue }
      let rates = members.map(\.sampleRateHz).sorted()
      let rate = rates[rates.count / 2]
      var times: [Double] = []
      var columns = [[Float]](repeating: [], count: first.columns.count)
      var labels: [Int32] = []
      for clip in members {
        for _ in 0..<clip.sampleCount { times.append(Double(times.count) / rate) }
        for c in columns.indices { columns[c] += clip.columns[c] }
        labels += clip.labelIndices
      }
      let label = Int(key.label) >= 0 ? vocabulary[Int(key.label)] : "?"
      let name = (key.run.isEmpty ? key.subject : key.run) + "/\(label)[\(members.count) clips]"
      out.append(
        Recording(
          session: name, subject: key.subject, source: first.source, timestamps: times,
          columns: columns, labelIndices: labels, sampleRateHz: rate))
      if !uncounted.contains(label) { counts[name] = members.count }
    }
    return (out, counts)
  }

  /// `recording` at `rateHz` (anti-alias low-pass, then interpolation); unchanged but for its
  /// nominal rate when already within 1 %. `nil` when fewer than 2 samples remain.
  static func resample(
    _ recording: Recording, to rateHz: Double, what: String = "a recording"
  ) throws -> Recording? {
    var r = recording
    if abs(r.sampleRateHz - rateHz) > 0.01 * rateHz && !r.columns.isEmpty {
      try Limits.checkResampling(fromHz: r.sampleRateHz, toHz: rateHz, what: what)
      try LoadState.checkResamplingMemory(
        seconds: r.durationSeconds, rateHz: rateHz, channelCount: r.columns.count,
        what: "resampling \(what) to \(rateHz) Hz")
      let out = StreamingResampler.resample(
        timestamps: r.timestamps, columns: r.columns, inputRateHz: r.sampleRateHz,
        outputRateHz: rateHz)
      r.labelIndices = LoadState.nearestLabels(
        at: out.timestamps, times: r.timestamps, labels: r.labelIndices)
      r.timestamps = out.timestamps
      r.columns = out.columns
    }
    r.sampleRateHz = rateHz
    return r.sampleCount >= 2 ? r : nil
  }
}

extension Manifest.Source {
  /// The loader's options for this source (`key` names it in errors).
  func loadOptions(key: String) -> LoadOptions {
    var options = LoadOptions()
    options.channelPatterns = channels
    options.negateAcceleration = negateAcceleration ?? false
    options.labelMap = labels
    options.appLabels = AppExportLabels(label: label)
    options.keepLabels = Array(Set(labels.values)).sorted()
    if let text = subjects {
      options.subjects = try? SubjectFilter(parsing: text, flag: "\(key).subjects")
    }
    if let text = excludeSubjects {
      options.excludeSubjects = try? SubjectFilter(parsing: text, flag: "\(key).excludeSubjects")
    }
    return options
  }
}

extension LoadReport {
  /// Adds one source's report, its sessions, subjects, channels and notes prefixed with its name.
  mutating func merge(_ other: LoadReport, source: String) {
    files += other.files
    rowsRead += other.rowsRead
    rowsDroppedByLabel += other.rowsDroppedByLabel
    sessions += other.sessions.map { s in
      var s = s
      s.name = "\(source):\(s.name)"
      s.subject = "\(source):\(s.subject)"
      return s
    }
    skipped += other.skipped
    for (name, count) in other.missingValues {
      missingValues["\(source):\(name)", default: 0] += count
    }
    notes += other.notes.map { "\(source): \($0)" }
    warnings += other.warnings.map { "\(source): \($0)" }
  }
}
