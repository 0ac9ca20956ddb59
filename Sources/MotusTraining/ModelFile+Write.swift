// Writing a model file belongs to the training side: MotusModels encodes and reads the format,
// and the output rule (`OutputFile`, MotusIngest) stays out of the inference product.

import Foundation
import MotusIngest
import MotusModels
import MotusOutput

extension ModelFile {
  /// Writes by the output rule (`OutputFile`): a temporary file in the same folder, then a
  /// rename, so a failed write leaves any previous file at `url` intact; a model file given as
  /// `inputs` is refused.
  public static func write(_ model: TrainedModel, to url: URL, inputs: [String] = []) throws {
    let file = url.path
    let data: Data
    do {
      data = try encode(model)
    } catch {
      throw ModelFileError.unwritable(file: file, reason: "cannot encode header: \(error)")
    }
    do {
      try OutputFile.write([UInt8](data), to: file, flag: "model file", inputs: inputs)
    } catch let error as OutputFileError {
      throw ModelFileError.unwritable(file: file, reason: error.reason)
    }
  }
}
