import Foundation
import MotusData
import MotusGzip

/// One input of a load: a file read as it is, or a phone-app recording, converted when its
/// turn comes (so only one is held at a time).
enum LoadInput {
  case file(String)
  case app(path: String, label: String)

  var name: String {
    switch self {
    case .file(let path): return InputFile.displayName(path)
    case .app(let path, _): return path
    }
  }

  var sizeHint: Int {
    switch self {
    case .file(let path): return InputFile.textSizeHint(path)
    case .app(let path, _): return AppExportRecording.sizeHint(path: path)
    }
  }
}
