// Compressed input of a kind motus does not inflate (bzip2, xz, zstd, zlib, gzip inside gzip)
// is named by its magic bytes with the command that decompresses it, not "binary data".

import Foundation
@testable import MotusIngest
import MotusGzip
import MotusTestSupport
import XCTest

@testable import MotusData

final class CompressedInputNamingTests: XCTestCase {
  var folder: CSVFolder!

  override func setUpWithError() throws { folder = try CSVFolder() }
  override func tearDown() { folder.remove() }

  /// Magic bytes, then bytes as compressed data has them (NULs and control bytes).
  private func compressed(_ magic: [UInt8]) -> [UInt8] {
    var generator = SplitMix64(seed: 24301)  // seeded: a failure replays
    return magic + (0..<600).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0, 1, 2]
  }

  func testCompressedFormats_AreNamedWithTheCommandThatDecompresses() throws {
    let formats: [(String, [UInt8], String)] = [
      ("x.csv.bz2", Array("BZh91AY&SY".utf8), "bzip2-compressed data"),
      ("x.csv.xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz-compressed data"),
      ("x.csv.zst", [0x28, 0xB5, 0x2F, 0xFD], "zstd-compressed data"),
      ("x.csv.zz", [0x78, 0x9C], "zlib-compressed data"),
    ]
    let text = Array("timestamp,session,subject,label,a\n0,s,1,walk,1\n".utf8)
    var cases = formats.map { ($0.0, compressed($0.1), $0.2) }
    cases.append(
      ("x.csv.gz", Gzip.compress(Gzip.compress(text)), "gzip-compressed data (inside gzip"))
    for (name, bytes, expected) in cases {
      let path = folder.url.appendingPathComponent(name).path
      _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
      let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
      guard case .notText(_, let encoding)? = error else {
        XCTFail("\(name): \(String(describing: error))")
        continue
      }
      XCTAssertTrue(encoding.hasPrefix(expected), "\(name): \(encoding)")
      let tool = expected.hasPrefix("zlib") ? "python3" : expected.prefix(while: { $0 != "-" })
      XCTAssertTrue("\(error!)".contains("decompress it first: `\(tool)"), "\(error!)")
    }
    // A header that merely starts like a magic number is text.
    XCTAssertNil(TextEncoding.problem(Array("BZh,x^\nx^1,2\n".utf8)))
    XCTAssertNil(TextEncoding.problem(Array("x^2,y\n1,2\n".utf8)))
  }
}
