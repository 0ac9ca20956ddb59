// A `POST /samples` body: CSV in motus's long layout, its header first (a `timestamp` column,
// the model's channels, optionally `session`). Every line is read before any is fed: a line
// that does not read refuses the whole body with its line and column.

import MotusData
import MotusModels
import MotusOutput
import MotusStreaming

struct LiveCSVBody {
  struct Lines {
    var bytes: [UInt8] = []
    var firstTime = Double.nan
    var firstLine = 0
  }

  let header: String
  /// Each session's lines (the session column's value, `default` without one), in order of
  /// first appearance.
  private(set) var sessions: [(String, Lines)] = []
  private(set) var rows = 0

  init(_ body: [UInt8], device: String, model: TrainedModel) throws(LiveInputError) {
    let file = "POST /samples (device '\(device)')"
    var lines = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let first = lines.first else {
      throw LiveInputError("\(file): empty body.", hint: "send a header line, then rows.")
    }
    header = String(decoding: first, as: UTF8.self)
    var reader: StreamRowReader
    do {
      reader = try StreamRowReader(header: Array(first), file: file, model: model)
    } catch {
      throw LiveInputError(
        status: 422, "\(error)", hint: "`motus model-info MODEL` lists the columns it needs.")
    }
    var values = [Float](repeating: 0, count: reader.inputs.count)
    var index: [String: Int] = [:]
    var previous: [String: Double] = [:]
    for (n, line) in lines.enumerated().dropFirst() {
      let row = Array(line).withUnsafeBufferPointer { bytes in
        values.withUnsafeMutableBufferPointer { reader.read(bytes: bytes, into: $0) }
      }
      switch row {
      case .blank: continue
      case .skipped(let error):
        throw LiveInputError(status: 422, "\(error); body not read.")
      case .sample(let time, let session):
        let name = session ?? "default"
        if let last = previous[name], time <= last {
          throw LiveInputError(
            status: 422,
            "\(file) line \(n + 1): time \(time) is not after \(last): the clock went backwards "
              + "in session '\(name)'; body not read.")
        }
        previous[name] = time
        if index[name] == nil {
          index[name] = sessions.count
          sessions.append((name, Lines(firstTime: time, firstLine: n + 1)))
        }
        sessions[index[name]!].1.bytes += line
        sessions[index[name]!].1.bytes.append(UInt8(ascii: "\n"))
        rows += 1
      }
    }
    guard rows > 0 else {
      throw LiveInputError(status: 422, "\(file): a header but no rows.")
    }
  }

  /// Refuses lines the stream cannot continue with: another header, or a clock going back.
  func check(_ lines: Lines, against stream: LiveStream) throws(LiveInputError) {
    guard stream.header == header else {
      throw LiveInputError(
        status: 409,
        "\(stream.key): this body's header differs from the session's first ('\(stream.header)').",
        hint: "keep one header per session, or start a new session.")
    }
    guard lines.firstTime > stream.lastRowTime else {
      throw LiveInputError(
        status: 422,
        "\(stream.key) line \(lines.firstLine): time \(lines.firstTime) is not after the last "
          + "row received (\(stream.lastRowTime)): the clock went backwards; body not read.")
    }
  }
}
