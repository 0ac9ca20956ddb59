// A load whose memory follows what the caller keeps, not the file: each session is finished
// (labels, gaps, recipes, resampling) and handed over once the reader has moved past it, and
// only its outline stays. The whole-file rules still hold: when the data breaks one of the
// assumptions this needs, the caller is told to load the usual way instead (see `loadSessions`).

import Foundation
import MotusData

/// Recordings of sessions the reader has moved past, in dataset order.
struct SessionBatch: Sendable {
  /// Their label indices point into `labels`, the labels read so far (after the label
  /// map), which only ever grows; the final vocabulary is `LoadOutline.labels`.
  var recordings: [Recording]
  var labels: [String]
  /// The recipes of the dataset's channels, in `Recording.columns` order.
  var recipes: [ChannelRecipe]
}

extension DatasetLoader {
  /// Loads `paths` as `load(_:options:progress:)` does, but hands the recordings to `consume`
  /// a few sessions at a time, as soon as the reader has moved past them, and keeps only
  /// their outlines: peak memory is a few blocks of the file and its longest sessions, plus
  /// what `consume` keeps.
  ///
  /// The recordings, their order, the report and the final vocabulary are those of `load`.
  /// Returns nil when that cannot be promised, and the caller then loads the usual way and
  /// drops what `consume` was given: an input that is neither a regular file nor a phone-app
  /// recording; a session whose
  /// rows are not contiguous; one session name in two files (`load` names them after their
  /// file); or any error, from the data or from `consume` (so that `load` reports the error
  /// it always has, in its order).
  static func loadSessions(
    _ paths: [String], options: LoadOptions,
    progress: ((_ bytesDone: Int, _ bytesTotal: Int) -> Void)? = nil,
    consume: @escaping (SessionBatch) throws -> Void
  ) -> LoadOutline? {
    do {
      let inputs = try inputs(paths, options: options)
      let total = inputs.map(\.sizeHint).reduce(0, +)
      var state = LoadState(options: options)
      let streaming = SessionStreaming(consume: consume)
      state.streaming = streaming
      var done = 0
      var apps: [AppExportRecording] = []
      for (index, input) in inputs.enumerated() {
        switch input {
        case .app(let path, let label):
          var recording = try readApp(path: path, label: label, options: options)
          try state.parse(app: &recording, file: input.name, fileIndex: index)
          apps.append(recording)
          done += input.sizeHint
        case .file(let path):
          guard let blocks = try InputBlocks(path: path) else { return nil }
          try state.parse(file: input.name, fileIndex: index, blocks: blocks) {
            progress?(done + $0, total)
          }
          done += blocks.bytesRead
        }
        try state.releaseSessions(before: state.sessions.count, files: state.files)
        progress?(done, total)
      }
      var outline = try state.finishStreamed()
      outline?.report.notes += apps.flatMap(\.notes)
      outline?.report.warnings += apps.flatMap(\.warnings)
      return outline
    } catch {
      return nil
    }
  }
}

extension DatasetLoader {
  /// What `load` would find, without holding the samples: streamed when it can be (see
  /// `loadSessions`), else loaded whole and outlined.
  ///
  /// - Throws: What `load` throws.
  static func loadOutline(
    _ paths: [String], options: LoadOptions,
    progress: ((_ bytesDone: Int, _ bytesTotal: Int) -> Void)? = nil
  ) throws -> LoadOutline {
    if let outline = loadSessions(paths, options: options, progress: progress, consume: { _ in }) {
      return outline
    }
    return LoadOutline(try load(paths, options: options, progress: progress))
  }
}

extension LoadState {
  /// Finishes `sessions[released..<end]` on every core and hands their recordings over.
  mutating func releaseSessions(before end: Int, files: [String]) throws {
    guard let streaming, end > streaming.released else { return }
    let range = streaming.released..<end
    let labels = labelDecisionsSoFar()
    let names = sessions[range].map { sessionNames.names[Int($0.name)] }
    var work = sessionWork(files: files, names: names, range: range)
    let outcomes = try Self.finishConcurrently(
      &work, context: finishContext(labels: labels, plan: try channelPlan()))
    streaming.released = end
    let recordings = addToReport(outcomes)
    streaming.tally.add(recordings)
    streaming.outlines += recordings.map(RecordingOutline.init)
    try streaming.consume(
      SessionBatch(recordings: recordings, labels: labels.mappedNames.names, recipes: recipes))
  }

  /// After the last file: the checks and totals `finish` makes; nil when two files hold
  /// sessions of one name.
  mutating func finishStreamed() throws -> LoadOutline? {
    // The names handed over were as read; `load` would have prefixed some with their file.
    guard let streaming,
      qualifiedSessionNames(files: files) == sessions.map({ sessionNames.names[Int($0.name)] })
    else { return nil }
    recordFileTotals(files: files)
    let labels = try labelDecisions()
    let vocabulary = try vocabulary(
      streaming.tally, recordingCount: streaming.outlines.count, mappedNames: labels.mappedNames
    ).labels
    return LoadOutline(
      recordings: streaming.outlines, labels: vocabulary, recipes: recipes, report: report)
  }
}
