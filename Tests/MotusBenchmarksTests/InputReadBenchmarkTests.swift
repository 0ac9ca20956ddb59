// `motus bench io`'s words for what goes wrong: a child's wait status decoded (exit status,
// signal and its name, a hint by kind), a full temporary folder with its path and TMPDIR (a
// real ENOSPC, from /dev/full), and commands quoted as a shell takes them.

import Foundation
import MotusGzip
import MotusTestSupport
import XCTest

@testable import MotusBenchmarks

#if canImport(Glibc)
  import Glibc
#endif

final class InputReadBenchmarkTests: TemporaryFolderTestCase {
  func testChildFailure_DecodesTheWaitStatusWithAHint() {
    let exited = BenchmarkRunError.childFailed(command: "motus inspect a.csv", status: 1 << 8)
    XCTAssertEqual(
      exited.description,
      "`motus inspect a.csv` failed with exit status 1. HINT: run it alone to see its error "
        + "(each timed run's output and errors go to /dev/null).")
    let killed = BenchmarkRunError.childFailed(command: "motus inspect a.csv", status: SIGKILL)
    XCTAssertTrue(
      killed.description.hasPrefix("`motus inspect a.csv` was killed by signal 9 (SIGKILL). "),
      killed.description)
    XCTAssertTrue(killed.description.contains("out of memory"), killed.description)
    let trapped = BenchmarkRunError.childFailed(
      command: "motus stream m.motus a.csv.gz", note: " (on the gzip copy)", status: SIGILL)
    XCTAssertTrue(
      trapped.description.contains(
        "(on the gzip copy) was killed by signal 4 (SIGILL, a trap). HINT: motus crashed"),
      trapped.description)
  }

  func testFullDisk_WhileWritingTheCopyNamesTheFolderAndTMPDIR() throws {
    let text = String(repeating: "0,s,1,a,0.25\n", count: 1000)
    let file = try write(text, "a.csv")
    let reader = try InputReader(path: file)
    let full = open("/dev/full", O_WRONLY)
    XCTAssertGreaterThanOrEqual(full, 0)
    defer { close(full) }
    XCTAssertThrowsError(
      try InputReadBenchmark.writeMembers(of: reader, named: file, to: full, folder: "/dev")
    ) { error in
      let said = "\(error)"
      XCTAssertTrue(said.hasPrefix("the temporary folder /dev is full: the gzip copy of "), said)
      XCTAssertTrue(said.contains("TMPDIR=/path/to/folder motus bench io \(file)"), said)
    }
  }

  func testReserve_IsOnePercentOfTheDiskAtMost64MiB() {
    XCTAssertEqual(InputReadBenchmark.reserveBytes(totalBytes: 1_000_000), 10_000)
    XCTAssertEqual(InputReadBenchmark.reserveBytes(totalBytes: 1 << 40), 64 << 20)
  }

  func testShellWords_QuoteWhatAShellWouldSplitOrExpand() {
    XCTAssertEqual(
      InputReadBenchmark.shellWords(["motus", "inspect", "data/a-1.csv"]),
      "motus inspect data/a-1.csv")
    XCTAssertEqual(
      InputReadBenchmark.shellWords(["motus", "inspect", "my file.csv", "it's", "$x", ""]),
      #"motus inspect 'my file.csv' 'it'\''s' '$x' ''"#)
  }
}
