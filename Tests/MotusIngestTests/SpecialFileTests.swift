// Files that are not data at all: the kernel's /proc and /sys files (whose stat size is 0
// whatever a read returns, and which fail, block or read forever) and folders. Every reader
// (whole reads, block reads, the app-export header probe) refuses them with the file and why,
// never a trap.

import Foundation
import MotusGzip
@testable import MotusIngest
import XCTest

@testable import MotusData

final class SpecialFileTests: XCTestCase {
  /// Files of the kernel's interfaces present on every Linux machine.
  private let kernelFiles = ["/proc/self/mem", "/proc/self/status", "/proc/self/pagemap"]

  private func skipUnlessLinux() throws {
    #if !os(Linux)
      throw XCTSkip("the kernel interfaces /proc and /sys are Linux's")
    #endif
  }

  func testKernelInterfaceFiles_AreRefusedByEveryReaderNamingTheFile() throws {
    try skipUnlessLinux()
    for path in kernelFiles {
      XCTAssertThrowsError(try InputFile.read(path)) { error in
        XCTAssertEqual(
          error as? InputFileError,
          .notData(file: path, what: "a file of the kernel's /proc interface"))
      }
      // The text reader, which looks for gzip, opens by the same rule.
      XCTAssertThrowsError(try InputFile.readText(path)) { error in
        XCTAssertEqual(
          error as? InputFileError,
          .notData(file: path, what: "a file of the kernel's /proc interface"))
      }
      XCTAssertThrowsError(try InputFile.readTextPrefix(path, count: 100)) { error in
        XCTAssertEqual(
          error as? InputFileError,
          .notData(
            file: path, what: "a file of the kernel's /proc interface"))
      }
      // The header probe used to read with FileHandle, which traps on EIO (/proc/self/mem).
      XCTAssertThrowsError(try AppExport.recognise(path: path))
      let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
      XCTAssertEqual(
        error,
        .unreadable(
          file: path, reason: "it is a file of the kernel's /proc interface, not a data file"))
      // Nothing of the file is quoted (/proc/self/status begins "Name:").
      XCTAssertFalse("\(error!)".contains("Name"), "\(error!)")
    }
    XCTAssertThrowsError(try InputFile.read("/sys/kernel/mm/transparent_hugepage/enabled")) {
      XCTAssertTrue("\($0)".contains("a file of the kernel's /sys interface"), "\($0)")
    }
  }

  func testPipesAndOrdinaryFiles_AreStillRead() throws {
    let folder = try CSVFolder()
    defer { folder.remove() }
    let text = "timestamp,label,x\n0,walk,1\n0.1,walk,2\n"
    let path = try folder.write("a.csv", text)
    XCTAssertEqual(try InputFile.readTextPrefix(path, count: 9), Array("timestamp".utf8))
    XCTAssertEqual(try InputFile.read(path).count, text.utf8.count)
    // /dev/fd and /proc/self/fd name the descriptor's file, not a /proc file.
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    XCTAssertEqual(try InputFile.read("/proc/self/fd/\(fd)").count, text.utf8.count)
  }
}
