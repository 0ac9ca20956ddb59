// gzip inflated on a thread of its own (`InputReadAhead`): the same text and errors as the
// reader it reads, through any ring; a signal interrupts a wait for text as it interrupts a
// read. (Its thread ending with ingest's block reader: MotusIngestTests' ReadAheadLoaderTests.)

import Foundation
@testable import MotusGzip
import MotusTestSupport
import Synchronization
import XCTest

@testable import MotusData

#if canImport(Glibc)
  import Glibc
#endif

final class InputReadAheadTests: TemporaryFolderTestCase {
  /// Everything `read` gives in reads of `count` bytes, and the error that ended it.
  private func readAll(count: Int, _ read: (UnsafeMutableRawPointer, Int) throws -> Int?) -> (
    [UInt8], (any Error)?
  ) {
    var text: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: count)
    do {
      while true {
        let n = try chunk.withUnsafeMutableBytes { try read($0.baseAddress!, $0.count) }
        guard let n else { continue }
        if n == 0 { return (text, nil) }
        text += chunk[..<n]
      }
    } catch {
      return (text, error)
    }
  }

  func testAnyRing_GivesTheTextOfEveryMember() throws {
    let text = walkRunCSV(rows: 3000)
    let members = [0..<10, 10..<5000, 5000..<text.count].flatMap {
      Gzip.compress(Array(text[$0]))
    }
    for file in [try writeBytes(members, "a.csv.gz"), try writeBytes(text, "a.csv")] {
      for (capacity, count) in [(7, 3), (4096, 10_000), (1 << 20, 4096)] {
        let ahead = try XCTUnwrap(InputReadAhead(InputReader(path: file), capacity: capacity))
        let (read, error) = readAll(count: count) { try ahead.read(into: $0, count: $1) }
        XCTAssertNil(error)
        XCTAssertEqual(read, text, "ring of \(capacity), reads of \(count)")
        XCTAssertEqual(ahead.bytesRead, text.count)
      }
    }
  }

  func testErrors_ComeAfterTheTextBeforeThem_AsTheReaderGivesThem() throws {
    let text = walkRunCSV(rows: 3000)
    let compressed = Gzip.compress(text)
    let files = [
      try writeBytes(Array(compressed[..<(compressed.count / 2)]), "cut.csv.gz"),
      try writeBytes(compressed + Array("appended\n".utf8), "tail.csv.gz"),
    ]
    for file in files {
      let reader = try InputReader(path: file)
      let direct = readAll(count: 4096) { try reader.read(into: $0, count: $1) }
      let ahead = try XCTUnwrap(InputReadAhead(InputReader(path: file), capacity: 1000))
      let early = readAll(count: 333) { try ahead.read(into: $0, count: $1) }
      XCTAssertEqual(early.0, direct.0, file)
      let error = try XCTUnwrap(early.1 as? CompressedInputError, "\(String(describing: early.1))")
      XCTAssertEqual(error, direct.1 as? CompressedInputError)
      XCTAssertGreaterThan(error.line, 1)
    }
  }

  func testSignal_InterruptsTheWaitForText() throws {
    // A FIFO fed by hand: stored (level 0) gzip, so its first bytes inflate at once.
    let text = walkRunCSV(rows: 50)
    let member = Gzip.compress(text, level: 0)
    let fifo = folder.appendingPathComponent("feed").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let writer = open(fifo, O_RDWR)
    defer { if writer >= 0 { close(writer) } }
    XCTAssertEqual(Glibc.write(writer, member, 200), 200)
    let ahead = try XCTUnwrap(InputReadAhead(InputReader(path: fifo), capacity: 1 << 16))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var got: [UInt8] = []
    while got.count < 150 {
      let n = try chunk.withUnsafeMutableBytes {
        try ahead.read(into: $0.baseAddress!, count: $0.count)
      }
      got += chunk[..<(try XCTUnwrap(n))]
    }
    // Nothing more comes: a signal handled meanwhile ends the wait with nil, as EINTR would.
    var action = sigaction()
    action.__sigaction_handler = .init(sa_handler: { _ in })
    sigemptyset(&action.sa_mask)
    var previous = sigaction()
    sigaction(SIGUSR1, &action, &previous)
    defer { sigaction(SIGUSR1, &previous, nil) }
    let waiting = pthread_self()
    let interrupted = Flag()
    let senderDone = Flag()
    let sender = Thread {
      while true {
        usleep(20_000)
        if interrupted.value.load(ordering: .relaxed) { break }
        pthread_kill(waiting, SIGUSR1)
      }
      senderDone.value.store(true, ordering: .relaxed)
    }
    sender.start()
    let n = try chunk.withUnsafeMutableBytes {
      try ahead.read(into: $0.baseAddress!, count: $0.count)
    }
    interrupted.value.store(true, ordering: .relaxed)
    // No signal may come once the handler is restored (SIGUSR1's default ends the process).
    while !senderDone.value.load(ordering: .relaxed) { usleep(1000) }
    XCTAssertNil(n)
    // The rest arrives: read to the end, the same text.
    XCTAssertEqual(
      Glibc.write(writer, Array(member[200...]), member.count - 200), member.count - 200)
    close(writer)
    let (rest, error) = readAll(count: 100) { try ahead.read(into: $0, count: $1) }
    XCTAssertNil(error)
    XCTAssertEqual(got + rest, text)
  }
}

private final class Flag: Sendable {
  let value = Atomic<Bool>(false)
}
