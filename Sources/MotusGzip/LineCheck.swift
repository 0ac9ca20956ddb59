// The one line rule of every reader of text (the batch loader's whole and block reads, the
// phone-app readers, the window-table CSV reader, `motus stream`): a line longer than
// `Limits.lineBytes`, or more than `Limits.blankLineRun` blank lines in a row, is an error
// naming the file and line as soon as the text read passes the limit, so a gzip bomb of one
// line (or of line feeds) costs a megabyte of reading, not gigabytes or minutes. Only readers
// of whole inputs apply it (ingest, this module's text reads, `motus stream`): never the
// inference engine, whose rows arrive already split.

import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text checked as it is read, a piece at a time. Lines end at LF or CRLF; a lone CR ends a
/// line too, looked for only where a line would pass the limit (a file with CR line ends).
public struct LineCheck: Sendable {
  public let file: String
  public let lineLimit: Int
  public let blankLimit: Int
  /// Bytes of the line not yet ended (after the last line end seen).
  private var pending = 0
  /// Whether the last byte of `pending` is a CR.
  private var pendingEndsCR = false
  /// Whether the last byte seen was a lone CR that ended a line (an LF after it ends none).
  private var crEnded = false
  /// Line ends seen.
  private var ends = 0
  /// Blank lines in a row just before `pending`.
  private var blanks = 0
  /// Set once a lone CR has ended a line: the text has CR line ends, and every stretch is
  /// split at its CRs from then on.
  private var crLineEnds = false

  public init(
    file: String, lineLimit: Int = Limits.lineBytes, blankLimit: Int = Limits.blankLineRun
  ) {
    self.file = file
    self.lineLimit = lineLimit
    self.blankLimit = blankLimit
  }

  /// Checks the next piece of text.
  ///
  /// - Throws: `LimitError.lineTooLong` or `.blankLines` naming the 1-based line.
  public mutating func check(_ text: UnsafeBufferPointer<UInt8>) throws {
    guard let base = text.baseAddress else { return }
    var i = 0
    let n = text.count
    while i < n {
      guard let hit = memchr(base + i, 0x0A, n - i) else {
        try stretch(base, i, n, ended: false)
        return
      }
      let j = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
      try stretch(base, i, j, ended: true)
      i = j + 1
    }
  }

  /// `base[from..<to]`, bytes without an LF, then an LF when `ended`.
  private mutating func stretch(
    _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int, ended: Bool
  ) throws {
    let length = to - from
    if crEnded {
      crEnded = false
      if length == 0 && ended { return }  // the LF of a CRLF split between pieces
    }
    let endsCR = length > 0 ? base[to - 1] == 0x0D : pendingEndsCR
    let content = pending + length - (ended && endsCR ? 1 : 0)
    if content > lineLimit || crLineEnds {
      try crStretch(base, from, to, ended: ended)
      return
    }
    guard ended else {
      pending += length
      pendingEndsCR = endsCR
      return
    }
    try endLine(blank: content == 0)
  }

  /// The slow path, for a stretch that would pass the limit: each CR in it ends a line.
  private mutating func crStretch(
    _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int, ended: Bool
  ) throws {
    var i = from
    while i < to, let hit = memchr(base + i, 0x0D, to - i) {
      let c = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
      try grow(base, i, c)
      try endLine(blank: pending == 0)
      i = c + 1
      if i < to { crLineEnds = true }
      if i == to {
        // A CR last: the LF that ends the stretch, or one starting the next piece, is its pair.
        crEnded = !ended
        return
      }
    }
    try grow(base, i, to)
    pendingEndsCR = false
    if ended { try endLine(blank: pending == 0) }
  }

  private mutating func grow(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) throws {
    if pending + (to - from) > lineLimit {
      throw LimitError.lineTooLong(
        file: file, line: ends + 1, limitBytes: lineLimit,
        binary: memchr(base + from, 0, to - from) != nil)
    }
    pending += to - from
  }

  private mutating func endLine(blank: Bool) throws {
    ends += 1
    pending = 0
    pendingEndsCR = false
    blanks = blank ? blanks + 1 : 0
    if blanks > blankLimit {
      throw LimitError.blankLines(file: file, line: ends, limit: blankLimit)
    }
  }
}
