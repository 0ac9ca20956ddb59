// Inputs a new or hostile user feeds the loader: values out of range, text that is not UTF-8,
// binary data, cells of megabytes, escape sequences, pipes and FIFOs, absurd rates. Each gets
// a clear error naming where, or a correct result.

import Foundation
@testable import MotusIngest
import MotusTestSupport
import XCTest

@testable import MotusData

#if canImport(Glibc)
  import Glibc
#endif

final class BadInputTests: XCTestCase {
  var folder: CSVFolder!

  override func setUpWithError() throws { folder = try CSVFolder() }
  override func tearDown() { folder.remove() }

  private let header = "timestamp,session,subject,label,a,b\n"

  func testLoad_HugeValueIsOutOfRangeWithLocation() throws {
    // 1e400 reads as infinity, but it is a number too large, not a missing one.
    for bad in ["1e30", "-2.5e8", "1e300", "1e400", "-1e999"] {
      let path = try folder.write("x.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,1,\(bad)\n")
      let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
      guard case .outOfRange(let text, let at, let limit, false)? = error else {
        XCTFail("\(bad): \(String(describing: error))")
        continue
      }
      XCTAssertEqual(text, bad)
      XCTAssertEqual([at.line, at.column], [3, 6])
      XCTAssertEqual(limit, Limits.channelMagnitude)
      XCTAssertTrue("\(error!)".contains("x.csv:3:6 ('b'): \(bad) is beyond ±1e7"), "\(error!)")
    }
  }

  func testLoad_InfinityWrittenAsSuchIsNotAFiniteNumber() throws {
    for bad in ["inf", "-Infinity", "nan"] {
      let path = try folder.write("x.csv", header + "0,s,1,walk,1,\(bad)\n")
      let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
      guard case .nonFinite(bad, _)? = error else {
        XCTFail("\(bad): \(String(describing: error))")
        continue
      }
    }
  }

  func testLoad_TimeInMillisecondsSinceEpochIsOutOfRange() throws {
    let path = try folder.write("ms.csv", header + "1700000000000,s,1,walk,1,2\n")
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    guard case .outOfRange(_, let at, _, true)? = error else {
      return XCTFail(String(describing: error))
    }
    XCTAssertEqual([at.line, at.column], [2, 1])
    XCTAssertTrue("\(error!)".contains("divide milliseconds by 1000"), "\(error!)")
  }

  func testLoad_WithoutRangeCheckHugeFiniteValuesLoad() throws {
    let path = try folder.write(
      "x.csv", header + "0,s,1,walk,1,1e30\n0.1,s,1,walk,1,2\n1700000000000,s,1,walk,1,2\n")
    let loaded = try DatasetLoader.load([path], options: options { $0.checkValueRange = false })
    XCTAssertEqual(loaded.report.rowsRead, 3)
  }

  func testLoad_UTF16AndBinaryInputGetAnEncodingHint() throws {
    let text = header + "0,s,1,walk,1,2\n"
    let littleEndian = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let bigEndian = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let cases: [(String, [UInt8], String)] = [
      ("utf16le.csv", [0xFF, 0xFE] + littleEndian, "UTF-16 (little-endian)"),
      ("utf16be.csv", bigEndian, "UTF-16 (big-endian, no byte order mark)"),
      ("zeros.csv", [UInt8](repeating: 0, count: 1 << 20), "binary data"),
    ]
    for (name, bytes, encoding) in cases {
      let url = folder.url.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      let error = expectCSVError { _ = try DatasetLoader.load([url.path], options: options()) }
      XCTAssertEqual(error, .notText(file: url.path, encoding: encoding), name)
      XCTAssertLessThan("\(error!)".count, 400, "a short message, not the file")
    }
  }

  func testErrors_QuoteCellsShortAndEscapeControlBytes() throws {
    let long = String(repeating: "x", count: 100_000)
    let path = try folder.write(
      "x.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,\(long),2\n0.2,s,1,walk,1,\u{1B}[31mred\n")
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    XCTAssertLessThan("\(error!)".count, 400)
    XCTAssertTrue("\(error!)".contains("(99960 more characters)"), "\(error!)")
    let escape = try folder.write(
      "e.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,1,\u{1B}[31mred\n")
    let escaped = expectCSVError { _ = try DatasetLoader.load([escape], options: options()) }
    XCTAssertTrue("\(escaped!)".contains("'\\x1B[31mred'"), "\(escaped!)")
    XCTAssertFalse("\(escaped!)".contains("\u{1B}"), "no raw escape reaches the terminal")
  }

  func testErrors_ListAtMostSixteenColumnNames() throws {
    let names = (0..<500).map { "column\($0)" }
    let path = try folder.write(
      "wide.csv", "t," + names.joined(separator: ",") + "\n0," + names.map { _ in "1" }
        .joined(separator: ",") + "\n")
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    XCTAssertTrue("\(error!)".contains("and 485 more"), "\(error!)")
    XCTAssertLessThan("\(error!)".count, 600)
  }

  func testHeader_OfHalfAMillionColumnsIsRefusedAtTheLimit() throws {
    // 20,000 columns (130 KB): the column limit.
    let names = (0..<20_000).map { "c\($0)" }.joined(separator: ",")
    let path = try folder.write("wide.csv", names + "\n")
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    XCTAssertEqual(error, .tooManyColumns(file: path, limit: 10_000))
    // Half a million (3.4 MB): the line limit, before the header is parsed.
    let half = (0..<500_000).map { "c\($0)" }.joined(separator: ",")
    let wider = try folder.write("wider.csv", half + "\n")
    XCTAssertThrowsError(try DatasetLoader.load([wider], options: options())) {
      XCTAssertEqual(
        $0 as? LimitError,
        .lineTooLong(file: wider, line: 1, limitBytes: Limits.lineBytes, binary: false))
    }
  }

  func testLoad_ReadsAFIFOToItsEnd() throws {
    let fifo = folder.url.appendingPathComponent("fifo.csv").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    var text = header
    for i in 0..<2000 { text += "\(Double(i) / 50),s,1,walk,\(i % 7),1\n" }
    let payload = Data(text.utf8)  // larger than a pipe buffer: it arrives in pieces
    let writer = Thread {
      guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
      handle.write(payload)
      try? handle.close()
    }
    writer.start()
    let loaded = try DatasetLoader.load([fifo], options: options())
    XCTAssertEqual(loaded.report.rowsRead, 2000)
    XCTAssertEqual(InputFile.kind(fifo), .stream)
  }

  func testRead_StopsAtTheLimitInsteadOfGrowing() throws {
    XCTAssertThrowsError(try InputFile.read("/dev/zero", limit: 1 << 20)) { error in
      XCTAssertEqual(error as? InputFileError, .tooLarge(file: "/dev/zero", limitBytes: 1 << 20))
    }
    XCTAssertThrowsError(try InputFile.read(folder.url.path)) { error in
      XCTAssertEqual(error as? InputFileError, .isFolder(file: folder.url.path))
      XCTAssertTrue("\(error)".contains("it is a folder, not a file"), "\(error)")
    }
  }

  func testExpand_StandardInputOnlyOnce() throws {
    XCTAssertEqual(try DatasetLoader.expand(["-"]), ["-"])
    let error = expectCSVError { _ = try DatasetLoader.expand(["-", "-"]) }
    XCTAssertEqual(
      error, .unreadable(file: "<stdin>", reason: "standard input can be read only once"))
  }

  func testLoadInputs_ParsesBytesReadOnceTwice() throws {
    var text = header
    for i in 0..<400 { text += "\(Double(i) / 100),s,1,walk,\(i % 5),1\n" }
    let inputs = [InputBytes(name: "piped", bytes: Array(text.utf8))]
    let native = try DatasetLoader.load(inputs: inputs, options: options())
    let resampled = try DatasetLoader.load(
      inputs: inputs, options: options { $0.sampleRateHz = 50 })
    XCTAssertEqual(native.dataset.recordings[0].sampleRateHz, 100, accuracy: 1e-9)
    XCTAssertEqual(resampled.dataset.recordings[0].sampleRateHz, 50)
  }

  func testResampling_FromAnAbsurdRateIsRefusedWithTheLimit() throws {
    // Timestamps in milliseconds read as seconds: 50 Hz data looks like 0.05 Hz.
    var text = header
    for i in 0..<40 { text += "\(i * 20),s,1,walk,1,2\n" }
    let path = try folder.write("ms.csv", text)
    XCTAssertThrowsError(
      try DatasetLoader.load([path], options: options { $0.sampleRateHz = 50 })
    ) { error in
      XCTAssertEqual(error as? LimitError, .sampleRate(what: "session 's' (\(path))", hz: 0.05))
      XCTAssertTrue("\(error)".contains("0.1...10000 Hz"), "\(error)")
      XCTAssertTrue("\(error)".contains("divide milliseconds by 1000"), "\(error)")
    }
  }

  func testLimits_MemoryCheckNamesWhatAndTheSize() {
    XCTAssertNoThrow(try Limits.checkMemory(1e6, for: "a small table", hint: "none"))
    XCTAssertThrowsError(try Limits.checkMemory(17.6e12, for: "a window", hint: "use less.")) {
      error in
      XCTAssertTrue(
        "\(error)".hasPrefix("a window needs about 17.6 TB, more than the "), "\(error)")
      XCTAssertTrue("\(error)".hasSuffix("HINT: use less."), "\(error)")
    }
  }

  func testModelRecipes_DeviceMotionFeedsAnAccelerationModelAsTheStreamDoes() throws {
    // The shipped model's recipes: raw acceleration copied, and its magnitude.
    let axes = ["acceleration.x", "acceleration.y", "acceleration.z"]
    let recipes =
      axes.map { ChannelRecipe.copy($0) }
      + [ChannelRecipe(name: "|acceleration|", operation: .magnitude, inputs: axes)]
    var motion = "timestamp,session,subject,label,gravity.x,gravity.y,gravity.z,"
      + "userAcceleration.x,userAcceleration.y,userAcceleration.z\n"
    var direct = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
    for i in 0..<30 {
      let g: [Float] = [0.1, -0.7, -0.7]
      let u: [Float] = [0.3 * Float(i % 4), -0.1, 0.05 * Float(i % 3)]
      let sum = zip(g, u).map { 0 + $0 + $1 }
      motion += "\(Double(i) / 10),s,1,walk,\(g.map { "\($0)" }.joined(separator: ",")),"
        + u.map { "\($0)" }.joined(separator: ",") + "\n"
      direct += "\(Double(i) / 10),s,1,walk," + sum.map { "\(Double($0))" }.joined(separator: ",")
        + "\n"
    }
    let adapted = try DatasetLoader.load(
      [try folder.write("motion.csv", motion)], options: options { $0.modelRecipes = recipes })
    let plain = try DatasetLoader.load(
      [try folder.write("direct.csv", direct)], options: options { $0.modelRecipes = recipes })
    XCTAssertEqual(adapted.recipes, recipes)
    XCTAssertEqual(adapted.dataset.channels, recipes.map(\.name))
    XCTAssertEqual(adapted.dataset.recordings[0].columns, plain.dataset.recordings[0].columns)
    let note = "acceleration.x = gravity.x + userAcceleration.x"
    XCTAssertTrue(
      adapted.report.notes.contains { $0.contains(note) }, "\(adapted.report.notes)")
  }
}
