import Foundation
import MotusData

/// Standard output could not be written.
public struct StandardOutputError: Error, Equatable, CustomStringConvertible {
  /// The `errno` of the failed write.
  public let code: Int32

  public init(code: Int32) { self.code = code }

  /// The reader closed the pipe (EPIPE): nobody is left to tell, so commands end quietly.
  public var isClosedPipe: Bool { code == EPIPE }

  public var description: String {
    let hint: String
    switch code {
    case ENOSPC, EDQUOT:
      hint = "free space on the disk standard output is sent to, or send it elsewhere (> FILE)."
    case EPIPE:
      hint = "the program reading the output stopped before the end; let it read everything."
    default:
      hint = "check where standard output is sent (a file, a pipe or a terminal)."
    }
    return "standard output: \(InputFile.describe(code)). HINT: \(hint)"
  }
}
