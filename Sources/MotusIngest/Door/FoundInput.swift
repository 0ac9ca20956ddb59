import Foundation
import MotusData
import MotusGzip

/// One input a load found: a file or stream, or an app-export recording (a file or a folder).
struct FoundInput {
  var path: String
  var isApp: Bool

  /// Every file reading it takes: the path itself, and for an app-export folder the CSV files
  /// in it (a folder given with one of its files reads that file twice).
  var filesRead: [String] {
    guard isApp, InputFile.kind(path) == .folder else { return [path] }
    return [path]
      + ((try? AppExport.csvFiles(in: path)) ?? []).map {
        (path as NSString).appendingPathComponent($0)
      }
  }
}
