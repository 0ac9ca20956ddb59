// gzip-compressed recordings read as their text: the same load, window table, errors and line
// numbers as the uncompressed file, member after member; cut-short, damaged, appended and
// oversized gzip are errors naming the file and where the read got to. The compressed copies
// are made here (`Gzip.compress`), never committed.

import Foundation
import MotusGzip
@testable import MotusIngest
import MotusOutput
import MotusTestSupport
import XCTest

@testable import MotusData

final class GzipInputTests: TemporaryFolderTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    restoreAfterTest(get: { ChunkSplitter.chunkBytes }, set: { ChunkSplitter.chunkBytes = $0 })
    ChunkSplitter.chunkBytes = 512  // many blocks after the first
  }

  private let header = "timestamp,session,subject,label,x,y\n"

  /// Labelled synthetic rows: two sessions at 50 Hz, labels switching every 40 rows, a gap in
  /// the second session.
  private func text(rows: Int = 3000) -> String {
    header
      + (0..<rows).map { i in
        let session = i < rows / 2 ? "s1" : "s2"
        let t = Double(i) * 0.02 + (i > rows * 3 / 4 ? 30 : 0)
        let label = (i / 40) % 2 == 0 ? "walk" : "run"
        return "\(t),\(session),\(i < rows / 2 ? 1 : 2),\(label),\(sin(Double(i) * 0.3)),\(i % 9)\n"
      }.joined()
  }

  /// The gzip of `text` as several members, cut at `cuts` (byte offsets, mid-line or not).
  private func members(_ text: String, cuts: [Int]) -> [UInt8] {
    let bytes = Array(text.utf8)
    let bounds = [0] + cuts + [bytes.count]
    return zip(bounds, bounds.dropFirst()).flatMap { Gzip.compress(Array(bytes[$0..<$1])) }
  }

  /// Every way the loader reads a file: block reads, a whole read, the streamed outline and
  /// the streamed window table.
  private struct Loads: Equatable {
    var blocks: Dataset
    var blocksReport: LoadReport
    var whole: Dataset
    var wholeReport: LoadReport
    var outline: [RecordingOutline]?
    var outlineReport: LoadReport?
    var table: WindowTable
  }

  private func loads(_ path: String) throws -> Loads {
    var choice = FeatureChoice()
    choice.window = .samples(16)
    choice.hop = .samples(8)
    choice.channelRule = .all
    choice.statistics = [.mean, .std]
    let windowed = try DataSource(files: [path]).windows {
      try choice.spec(recipes: $0, recordingRates: $1)
    }
    let blocks = try DatasetLoader.load([path], options: LoadOptions())
    let whole = try DatasetLoader.load(inputs: DatasetLoader.read([path]), options: LoadOptions())
    let outline = DatasetLoader.loadSessions([path], options: LoadOptions()) { _ in }
    XCTAssertTrue(windowed.streamed)
    return Loads(
      blocks: blocks.dataset, blocksReport: blocks.report, whole: whole.dataset,
      wholeReport: whole.report, outline: outline?.recordings, outlineReport: outline?.report,
      table: windowed.table)
  }

  // MARK: - The same text, compressed

  func testGzipFile_LoadsAsItsTextEveryWay() throws {
    // One path, text then gzip: recognised by the bytes, and every name in the result agrees.
    let text = text()
    let path = try write(text, "rec.csv")
    let plain = try loads(path)
    XCTAssertNotNil(plain.outline, "the streamed load declined the text file")
    XCTAssertGreaterThan(plain.table.windowCount, 100)
    _ = try writeBytes(Gzip.compress(Array(text.utf8)), "rec.csv")
    XCTAssertEqual(try loads(path), plain)
    // Several members, cut mid-line and mid-number, read as their concatenation.
    _ = try writeBytes(members(text, cuts: [10, 5000, 5001, 40_000]), "rec.csv")
    XCTAssertEqual(try loads(path), plain)
  }

  func testRealRecording_LoadsTheSameCompressed() throws {
    try XCTSkipUnless(SharedData.isAvailable, "needs ../shared/datasets")
    ChunkSplitter.chunkBytes = 8 << 20
    let handle = try FileHandle(forReadingFrom: SharedData.motionSense)
    defer { try? handle.close() }
    let head = try XCTUnwrap(handle.read(upToCount: 4 << 20))
    let text = String(decoding: head[...(try XCTUnwrap(head.lastIndex(of: 10)))], as: UTF8.self)
    let path = try write(text, "motionsense-head.csv")
    let plain = try DatasetLoader.load([path], options: LoadOptions())
    _ = try writeBytes(Gzip.compress(Array(text.utf8)), "motionsense-head.csv")
    let packed = try DatasetLoader.load([path], options: LoadOptions())
    XCTAssertEqual(packed.dataset, plain.dataset)
    XCTAssertEqual(packed.report, plain.report)
  }

  func testBadCell_IsReportedAtTheLineAndColumnOfTheText() throws {
    var lines = text(rows: 40).split(separator: "\n", omittingEmptySubsequences: false)
    lines[11] = "0.22,s1,1,walk,x12,3"  // line 12 of the file
    let text = lines.joined(separator: "\n")
    let plainError = expectCSVError {
      _ = try DatasetLoader.load([try write(text, "x.csv")], options: LoadOptions())
    }
    let gz = try writeBytes(Gzip.compress(Array(text.utf8)), "x.csv.gz")
    let gzError = expectCSVError { _ = try DatasetLoader.load([gz], options: LoadOptions()) }
    XCTAssertEqual(gzError?.location?.line, 12)
    XCTAssertEqual(gzError?.location?.column, plainError?.location?.column)
    XCTAssertEqual(
      gzError?.description,
      plainError?.description.replacingOccurrences(of: "x.csv", with: gz)
        .replacingOccurrences(of: folder.path + "/" + folder.path, with: folder.path))
    XCTAssertTrue(gzError?.description.contains("x.csv.gz:12:5") ?? false, "\(gzError!)")
  }

  // MARK: - Folders, manifests, app exports

  func testFolder_ListsCompressedCSVFilesBesideTheOthers() throws {
    let rows = Array(text(rows: 200).split(separator: "\n").dropFirst())
    try write(header + rows[0..<100].joined(separator: "\n") + "\n", "a.csv")
    _ = try writeBytes(
      Gzip.compress(Array((header + rows[100...].joined(separator: "\n") + "\n").utf8)),
      "b.csv.gz")
    _ = try writeBytes(Gzip.compress(Array("not read".utf8)), "notes.txt.gz")
    XCTAssertEqual(
      try DatasetLoader.expand([folder.path]).map { PathName.last($0) }, ["a.csv", "b.csv.gz"])
    let loaded = try DatasetLoader.load([folder.path], options: LoadOptions())
    XCTAssertEqual(loaded.report.rowsRead, 200)
    XCTAssertEqual(loaded.report.files.map { PathName.last($0) }, ["a.csv", "b.csv.gz"])
  }

  func testManifestSource_NamingACompressedFileIsRead() throws {
    let text = text(rows: 400)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
    _ = try write(text, "data/plain.csv")
    _ = try writeBytes(Gzip.compress(Array(text.utf8)), "data/packed.csv.gz")
    func manifest(_ file: String) throws -> String {
      try write(
        """
        { "dataRoot": "data", "sampleRateHz": 50, "channels": ["x", "y"],
          "labels": ["walking", "running"],
          "sources": [{ "name": "one", "files": ["\(file)"], "channels": ["x", "y"],
                        "labels": {"walk": "walking", "run": "running"} }] }
        """, "m.json")
    }
    let plain = try DataSource(manifest: manifest("plain.csv")).load().result.dataset
    let packed = try DataSource(manifest: manifest("packed.csv.gz")).load().result.dataset
    XCTAssertEqual(packed.recordings.map(\.columns), plain.recordings.map(\.columns))
    XCTAssertEqual(packed.recordings.map(\.labelIndices), plain.recordings.map(\.labelIndices))
    XCTAssertGreaterThan(plain.recordings.count, 0)
  }

  func testAppExport_SavedGzippedIsRecognisedAndReadAlike() throws {
    let fixture = AppFixtures.path("synthetic-physics-toolbox-linear/synthetic_walking.csv")
    let bytes = try InputFile.read(fixture)
    let path = try writeBytes(bytes, "walk.csv")
    let plain = try AppFixtures.load([path])
    _ = try writeBytes(Gzip.compress(bytes), "walk.csv")
    XCTAssertEqual(try AppExport.recognise(path: path), .physicsToolbox)
    let packed = try AppFixtures.load([path])
    XCTAssertEqual(packed.dataset, plain.dataset)
    XCTAssertEqual(packed.report, plain.report)
    XCTAssertGreaterThan(plain.dataset.recordings.first?.sampleCount ?? 0, 100)
    // Under its compressed name, found in a folder's listing too.
    try FileManager.default.removeItem(atPath: path)
    let gz = try writeBytes(Gzip.compress(bytes), "walk.csv.gz")
    XCTAssertEqual(try AppExport.recognise(path: gz), .physicsToolbox)
    let listed = try AppFixtures.load([folder.path])
    XCTAssertEqual(
      listed.dataset.recordings.map(\.columns), plain.dataset.recordings.map(\.columns))
  }

  func testAppFolders_WithCompressedSensorFilesReadAsThePlainOnes() throws {
    // Sensor Logger and phyphox look for their files by name: `Accelerometer.csv.gz` is
    // `Accelerometer.csv` compressed, found by the same rule (a meta/ subfolder too).
    for fixture in [
      "synthetic-sensor-logger-ios", "synthetic-sensor-logger-android",
      "synthetic-phyphox-multisensor",
    ] {
      let source = URL(fileURLWithPath: AppFixtures.path(fixture))
      let packed = folder.appendingPathComponent(fixture)
      for sub in ["", "meta"] {
        let from = source.appendingPathComponent(sub)
        guard FileManager.default.fileExists(atPath: from.path) else { continue }
        let to = packed.appendingPathComponent(sub)
        try FileManager.default.createDirectory(at: to, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: from.path)
        where name.hasSuffix(".csv") {
          let bytes = try InputFile.read(from.appendingPathComponent(name).path)
          try Data(Gzip.compress(bytes)).write(to: to.appendingPathComponent(name + ".gz"))
        }
      }
      let plain = try AppFixtures.load([source.path])
      let compressed = try AppFixtures.load([packed.path])
      XCTAssertEqual(
        try AppExport.recognise(path: packed.path), try AppExport.recognise(path: source.path))
      // The same recording but for its source (the folder's path).
      var moved = compressed.dataset
      for i in moved.recordings.indices {
        moved.recordings[i].source = source.path
        moved.recordings[i].pedometer?.source =
          plain.dataset.recordings[i].pedometer?.source ?? ""
        XCTAssertEqual(
          compressed.dataset.recordings[i].pedometer?.source.contains("Pedometer.csv.gz"),
          plain.dataset.recordings[i].pedometer.map { _ in true }, fixture)
      }
      XCTAssertTrue(moved == plain.dataset, "\(fixture): not the plain folder's recordings")
      XCTAssertGreaterThan(plain.dataset.recordings.first?.sampleCount ?? 0, 100, fixture)
      let recording = try XCTUnwrap(AppExport.read(path: packed.path, label: "walking"))
      let original = try XCTUnwrap(AppExport.read(path: source.path, label: "walking"))
      XCTAssertEqual(recording.platform, original.platform, fixture)
      XCTAssertEqual(
        recording.notes.map { $0.replacingOccurrences(of: ".csv.gz", with: ".csv") },
        original.notes.map { $0.replacingOccurrences(of: source.path, with: packed.path) },
        fixture)
    }
    // A single file's recording is named without `.csv.gz`, as without `.csv`.
    let file = AppFixtures.path("synthetic-physics-toolbox-linear/synthetic_walking.csv")
    let gz = try writeBytes(Gzip.compress(try InputFile.read(file)), "synthetic_walking.csv.gz")
    XCTAssertEqual(try AppExport.read(path: gz, label: "walking").name, "synthetic_walking")
  }

  // MARK: - gzip that cannot be read

  private func compressedError(_ body: () throws -> Void) -> CompressedInputError? {
    do {
      try body()
      XCTFail("expected a CompressedInputError")
    } catch let error as CompressedInputError {
      XCTAssertTrue(error.description.contains("HINT: "), "\(error)")
      return error
    } catch {
      XCTFail("expected a CompressedInputError, got \(error)")
    }
    return nil
  }

  /// Every reader of a file: blocks, whole, the app-export header probe.
  private func assertEveryReader(
    _ path: String, gives problem: CompressedInputError.Problem, line: UInt = #line
  ) -> CompressedInputError? {
    let blocks = compressedError { _ = try DatasetLoader.load([path], options: LoadOptions()) }
    let whole = compressedError { _ = try InputFile.readText(path) }
    XCTAssertEqual(blocks?.problem, problem, line: line)
    XCTAssertEqual(whole, blocks, line: line)
    XCTAssertEqual(blocks?.file, path, line: line)
    return blocks
  }

  func testTruncatedGzip_NamesTheFileTheLineReachedAndHowToCheckIt() throws {
    let compressed = Gzip.compress(Array(text().utf8))
    let cut = compressed.count / 2
    let path = try writeBytes(Array(compressed[..<cut]), "cut.csv.gz")
    let error = try XCTUnwrap(assertEveryReader(path, gives: .truncated))
    XCTAssertEqual(error.compressedOffset, cut)
    // The line reached: the text's line feeds before the cut, plus one.
    // The text a reader gets before the error.
    let reader = try InputReader(path: path)
    var reached: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    do {
      while let n = try chunk.withUnsafeMutableBytes({ raw in
        try raw.baseAddress.flatMap { try reader.read(into: $0, count: raw.count) }
      }), n > 0 {
        reached += chunk[..<n]
      }
      XCTFail("read to the end of a cut file")
    } catch {
      XCTAssertTrue(error is CompressedInputError, "\(error)")
    }
    XCTAssertLessThan(reached.count, text().utf8.count)
    XCTAssertGreaterThan(error.line, 100)
    XCTAssertEqual(error.line, reached.filter { $0 == 10 }.count + 1)
    XCTAssertTrue(error.description.contains("gzip -t '\(path)'"), error.description)
    XCTAssertTrue(error.description.contains("line \(error.line)"), error.description)
    // Only the header: cut inside the gzip header itself.
    let stub = try writeBytes(Array(compressed[..<5]), "stub.csv.gz")
    XCTAssertEqual(assertEveryReader(stub, gives: .truncated)?.line, 1)
  }

  func testDamagedGzip_IsAnErrorNotWrongRows() throws {
    var compressed = Gzip.compress(Array(text().utf8))
    // A changed byte in the deflate data: a bad block or, later, a CRC-32 that disagrees.
    compressed[compressed.count / 3] ^= 0x5A
    let path = try writeBytes(compressed, "damaged.csv.gz")
    let error = compressedError { _ = try DatasetLoader.load([path], options: LoadOptions()) }
    guard case .damaged = error?.problem else { return XCTFail("\(String(describing: error))") }
    XCTAssertTrue(error!.description.contains("damaged.csv.gz"), "\(error!)")
  }

  func testBytesAfterTheLastMember_AreAnErrorNotIgnored() throws {
    let compressed = Gzip.compress(Array(text(rows: 50).utf8))
    let path = try writeBytes(compressed + Array("appended\n".utf8), "tail.csv.gz")
    let error = assertEveryReader(path, gives: .trailingData)
    XCTAssertEqual(error?.compressedOffset, compressed.count)
  }

  func testGzipBomb_IsRefusedAtTheLimitNotAllocated() throws {
    // 64 MiB of zeros compress to 64 KB; the limit here is 1 MiB.
    let bomb = Gzip.compress([UInt8](repeating: 0x30, count: 64 << 20), level: 9)
    XCTAssertLessThan(bomb.count, 100_000)
    let path = try writeBytes(bomb, "bomb.csv.gz")
    for read in [
      { _ = try InputFile.readText(path, limit: 1 << 20) },
      {
        let blocks = try XCTUnwrap(InputBlocks(path: path, limit: 1 << 20))
        while !blocks.atEnd { try blocks.refill(dropping: blocks.count, minimum: 1 << 16) }
      },
    ] as [() throws -> Void] {
      let error = compressedError(read)
      XCTAssertEqual(error?.problem, .tooLarge(limitBytes: 1 << 20))
      XCTAssertTrue(error?.description.contains("decompresses to more than") ?? false)
    }
    // Its trailer claims 64 MiB: the whole read reserves no more than the limit.
    XCTAssertEqual(try InputReader(path: path).expectedSize(), 64 << 20)
  }

  func testReader_RecognisesGzipByItsBytesWhateverTheName() throws {
    let text = "timestamp,label,x\n0,walk,1\n"
    let named = try writeBytes(Gzip.compress(Array(text.utf8)), "looks-plain.csv")
    XCTAssertEqual(try InputFile.readText(named), Array(text.utf8))
    // A text file whose first byte is gzip's first is text.
    let almost = try writeBytes([0x1F] + Array(text.utf8), "almost.csv.gz")
    XCTAssertEqual(try InputFile.readText(almost), [0x1F] + Array(text.utf8))
    let empty = try writeBytes([], "empty.csv.gz")
    XCTAssertEqual(try InputFile.readText(empty), [])
  }
}
