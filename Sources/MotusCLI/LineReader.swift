// Reads a file or standard input one line at a time as it arrives, so `motus stream` works
// behind a pipe or `tail -f`.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class LineReader {
  let name: String
  private let file: UnsafeMutablePointer<FILE>
  private let ownsFile: Bool
  private var buffer: UnsafeMutablePointer<CChar>?
  private var capacity = 0

  /// `path` `-` reads standard input.
  init(path: String) throws {
    if path == "-" {
      name = "<stdin>"
      guard let handle = fdopen(0, "r") else {
        throw ToolError("cannot read standard input.", hint: "pass a file path instead of -.")
      }
      file = handle
      ownsFile = false
    } else {
      guard let handle = fopen(path, "r") else {
        throw ToolError(
          "\(path): cannot open (\(String(cString: strerror(errno)))).",
          hint: "check the path, or pass - to read standard input.")
      }
      name = path
      file = handle
      ownsFile = true
    }
  }

  deinit {
    free(buffer)
    if ownsFile { fclose(file) }
  }

  /// The next line without its line end, or nil at end of input.
  func next() -> String? {
    let length = getline(&buffer, &capacity, file)
    guard length >= 0, let buffer else { return nil }
    var end = length
    while end > 0, buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D { end -= 1 }
    return buffer.withMemoryRebound(to: UInt8.self, capacity: end) {
      String(decoding: UnsafeBufferPointer(start: $0, count: end), as: UTF8.self)
    }
  }
}
