import Foundation
import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output the rule refuses, or that could not be written. Every message says that any
/// earlier file at the path is unchanged.
public enum OutputFileError: Error, Equatable, CustomStringConvertible {
  case sameAsInput(path: String, flag: String, input: String)
  case sameAsOtherOutput(path: String, flag: String, other: String)
  case notAFile(path: String, flag: String, kind: String)
  case danglingLink(path: String, flag: String)
  case noFolder(path: String, flag: String, folder: String)
  case cannotCreate(path: String, flag: String, reason: String)
  case writeFailed(path: String, flag: String, reason: String)

  public var path: String {
    switch self {
    case .sameAsInput(let p, _, _), .sameAsOtherOutput(let p, _, _), .notAFile(let p, _, _),
      .danglingLink(let p, _), .noFolder(let p, _, _), .cannotCreate(let p, _, _),
      .writeFailed(let p, _, _):
      return p
    }
  }

  /// Why, without the path.
  public var reason: String {
    switch self {
    case .sameAsInput(_, _, let input):
      return "it is the input \(input); writing it would destroy the data"
    case .sameAsOtherOutput(_, _, let other):
      return "it is also the output \(other)"
    case .notAFile(_, _, let kind): return "it is \(kind), not a file"
    case .danglingLink: return "it is a symbolic link to nothing"
    case .noFolder(_, _, let folder): return "the folder \(folder) does not exist"
    case .cannotCreate(_, _, let reason), .writeFailed(_, _, let reason): return reason
    }
  }

  public var hint: String {
    switch self {
    case .sameAsInput, .sameAsOtherOutput: return "choose another output file name."
    case .notAFile: return "give a file path (or - for standard output)."
    case .danglingLink: return "remove the link, or point it at a file."
    case .noFolder: return "create the folder first, or choose another path."
    case .cannotCreate, .writeFailed:
      return "check that the folder is writable and the disk has space."
    }
  }

  public var description: String {
    let flag: String
    switch self {
    case .sameAsInput(_, let f, _), .sameAsOtherOutput(_, let f, _), .notAFile(_, let f, _),
      .danglingLink(_, let f), .noFolder(_, let f, _), .cannotCreate(_, let f, _),
      .writeFailed(_, let f, _):
      flag = f
    }
    return "\(flag) \(path): cannot write (\(reason)); any earlier file there is unchanged. "
      + "HINT: \(hint)"
  }
}
