// The output rule: an input is never overwritten, devices and FIFOs are written in place,
// folders refused, links followed, and the temporary file is exclusive, unpredictable and
// never left behind.

import Foundation
import MotusData
import MotusOutput
import MotusTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

final class OutputFileTests: TemporaryFolderTestCase {


  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  private func contents(_ name: String) -> String? {
    FileManager.default.contents(atPath: path(name)).map { String(decoding: $0, as: UTF8.self) }
  }

  private func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
  }

  func testOutput_ThatIsAnInputIsRefusedByInodeWhateverThePath() throws {
    try "recording".write(toFile: path("data.csv"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: path("alias.csv"), withDestinationPath: "data.csv")
    XCTAssertEqual(link(path("data.csv"), path("hard.csv")), 0)
    let roundabout = "./../\(folder.lastPathComponent)/data.csv"
    for output in ["data.csv", "alias.csv", "hard.csv", roundabout] {
      XCTAssertThrowsError(
        try OutputFile(path: path(output), flag: "--output", inputs: [path("data.csv")])
      ) { error in
        guard case .sameAsInput? = error as? OutputFileError else { return XCTFail("\(error)") }
        XCTAssertTrue("\(error)".contains("writing it would destroy the data"), "\(error)")
      }
    }
    XCTAssertEqual(contents("data.csv"), "recording")
    XCTAssertEqual(try leftovers(), [])
  }

  func testOutput_TwoOutputsOfOneRunMustDiffer() throws {
    XCTAssertThrowsError(
      try OutputFile(
        path: path("r.html"), flag: "--report", inputs: [], otherOutputs: [path("r.html")])
    ) { error in
      guard case .sameAsOtherOutput? = error as? OutputFileError else { return XCTFail("\(error)") }
    }
  }

  func testOutput_AnotherOutputSpelledAnotherWayIsStillRefused() throws {
    try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
    // The same file however spelled; a folder that will hold outputs; a folder not made yet.
    let cases = [
      (path("out/windows.npy"), path("./../\(folder.lastPathComponent)/out/windows.npy")),
      (path("out/windows.npy"), path("out/../out/windows.npy")),
      (path("parity"), path("parity")),
      (path("parity/windows.npy"), path("parity/../parity/windows.npy")),
    ]
    for (target, other) in cases {
      XCTAssertThrowsError(
        try OutputFile(path: target, flag: "--output", inputs: [], otherOutputs: [other]), other
      ) { error in
        XCTAssertTrue("\(error)".contains("it is also the output \(other)"), "\(error)")
      }
    }
    XCTAssertThrowsError(try OutputFile(path: "-", flag: "--report", inputs: [], otherOutputs: ["-"]))
    XCTAssertNoThrow(
      try OutputFile(
        path: path("out/windows.npy"), flag: "--output", inputs: [],
        otherOutputs: [path("out/features.npy"), path("windows.npy"), "-"]))
    XCTAssertEqual(try leftovers(), [])
  }

  func testOutput_ReplacesARegularFileAtomicallyKeepingItsMode() throws {
    try "old".write(toFile: path("out.csv"), atomically: true, encoding: .utf8)
    XCTAssertEqual(chmod(path("out.csv"), 0o640), 0)
    let output = try OutputFile(path: path("out.csv"), flag: "--output", inputs: [])
    XCTAssertTrue(output.isReplacedAtomically)
    try output.write("new")
    XCTAssertEqual(contents("out.csv"), "old", "readers see the old file until the rename")
    XCTAssertEqual(try leftovers().count, 1)
    try output.commit()
    XCTAssertEqual(contents("out.csv"), "new")
    var info = stat()
    XCTAssertEqual(stat(path("out.csv"), &info), 0)
    XCTAssertEqual(info.st_mode & 0o777, 0o640)
    XCTAssertEqual(try leftovers(), [])
  }

  func testDiscard_LeavesTheEarlierFileAndNoTemporaryFile() throws {
    try "old".write(toFile: path("out.csv"), atomically: true, encoding: .utf8)
    do {
      let output = try OutputFile(path: path("out.csv"), flag: "--output", inputs: [])
      try output.write("half a fil")
      // A failed run ends here without commit: the output is dropped with its owner.
    }
    XCTAssertEqual(contents("out.csv"), "old")
    XCTAssertEqual(try leftovers(), [])
    XCTAssertEqual(TemporaryFiles.registered.filter { $0.hasPrefix(folder.path) }, [])
  }

  func testTemporaryName_IsUnpredictableAndNotThePIDName() throws {
    let a = try OutputFile(path: path("m.motus"), flag: "-o", inputs: [])
    let b = try OutputFile(path: path("m.motus"), flag: "-o", inputs: [])
    let names = try leftovers()
    XCTAssertEqual(names.count, 2, "two temporary files, exclusively created: \(names)")
    XCTAssertFalse(names.contains(".m.motus.\(ProcessInfo.processInfo.processIdentifier).tmp"))
    a.discard()
    b.discard()
    XCTAssertEqual(try leftovers(), [])
  }

  func testLinkPlantedAtTheOldTemporaryName_IsNotFollowed() throws {
    try "secret".write(toFile: path("victim"), atomically: true, encoding: .utf8)
    let planted = ".out.csv.\(ProcessInfo.processInfo.processIdentifier).tmp"
    try FileManager.default.createSymbolicLink(atPath: path(planted), withDestinationPath: "victim")
    try OutputFile.write(Array("result".utf8), to: path("out.csv"), flag: "--output")
    XCTAssertEqual(contents("victim"), "secret")
    XCTAssertEqual(contents("out.csv"), "result")
  }

  func testSymbolicLinkOutput_ReplacesTheFileItNamesAndKeepsTheLink() throws {
    try FileManager.default.createDirectory(
      atPath: path("real"), withIntermediateDirectories: false)
    try "old".write(toFile: path("real/target.csv"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: path("link.csv"), withDestinationPath: "real/target.csv")
    try OutputFile.write(Array("new".utf8), to: path("link.csv"), flag: "--output")
    XCTAssertEqual(contents("real/target.csv"), "new")
    XCTAssertEqual(
      try FileManager.default.destinationOfSymbolicLink(atPath: path("link.csv")),
      "real/target.csv")
    try FileManager.default.createSymbolicLink(
      atPath: path("dangling"), withDestinationPath: "nowhere")
    XCTAssertThrowsError(try OutputFile(path: path("dangling"), flag: "-o", inputs: [])) { error in
      XCTAssertEqual(error as? OutputFileError, .danglingLink(path: path("dangling"), flag: "-o"))
    }
  }

  func testFIFO_IsWrittenInPlaceAndStaysAFIFO() throws {
    let fifo = path("pipe")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let received = Received()
    let reader = Thread {
      if let handle = FileHandle(forReadingAtPath: fifo) {
        received.data = handle.readDataToEndOfFile()
      }
      received.done.signal()
    }
    reader.start()
    try OutputFile.write(Array("through the pipe".utf8), to: fifo, flag: "--output")
    received.done.wait()
    XCTAssertEqual(String(decoding: received.data, as: UTF8.self), "through the pipe")
    XCTAssertEqual(InputFile.kind(path("pipe")), .stream)
    XCTAssertEqual(try leftovers(), [])
  }

  func testFolderAndMissingFolder_AreRefusedWithAHint() throws {
    XCTAssertThrowsError(try OutputFile(path: folder.path, flag: "--output", inputs: [])) { error in
      XCTAssertEqual(
        error as? OutputFileError, .notAFile(path: folder.path, flag: "--output", kind: "a folder"))
    }
    let missing = path("no/such/out.csv")
    XCTAssertThrowsError(try OutputFile(path: missing, flag: "--output", inputs: [])) { error in
      XCTAssertEqual(
        error as? OutputFileError,
        .noFolder(path: missing, flag: "--output", folder: path("no/such")))
      XCTAssertTrue("\(error)".contains("any earlier file there is unchanged. HINT:"), "\(error)")
    }
  }
}

/// What a reader thread got, handed over through a semaphore.
final class Received: @unchecked Sendable {
  var data = Data()
  let done = DispatchSemaphore(value: 0)
}
