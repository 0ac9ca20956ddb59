// The fuzzing executable. Built with `-sanitize=fuzzer -DFUZZING` (scripts/fuzz.sh) it is a
// libFuzzer binary whose target is chosen by MOTUS_FUZZ_TARGET (a name of FuzzTargets.all:
// csv, model, manifest, stream, export, app-file, app-folder, parquet). Built plainly it replays
// inputs: `MotusFuzz TARGET FILE_OR_FOLDER...` runs each file through the target once, to
// reproduce a finding without libFuzzer.

import Foundation
import MotusFuzzTargets

nonisolated(unsafe) var chosenTarget: (@Sendable ([UInt8]) -> Void)?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  let name = ProcessInfo.processInfo.environment["MOTUS_FUZZ_TARGET"] ?? ""
  guard let target = FuzzTargets.all[name] else {
    let names = FuzzTargets.all.keys.sorted().joined(separator: ", ")
    FileHandle.standardError.write(Data("set MOTUS_FUZZ_TARGET to one of \(names)\n".utf8))
    exit(2)
  }
  chosenTarget = target
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  chosenTarget?(bytes)
  return 0
}

#if FUZZING
  // SwiftPM links an executable's entry point under this name; libFuzzer's driver does the rest.
  @_silgen_name("LLVMFuzzerRunDriver")
  func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  @_cdecl("MotusFuzz_main")
  public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { fuzzerTestOneInput($0, $1) }
  }
#else
  @main
  struct Replay {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      guard let name = arguments.first, let target = FuzzTargets.all[name] else {
        let names = FuzzTargets.all.keys.sorted().joined(separator: "|")
        print("usage: MotusFuzz \(names) FILE_OR_FOLDER...")
        exit(2)
      }
      var count = 0
      for path in arguments.dropFirst() {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        let files =
          isFolder.boolValue
          ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
            (path as NSString).appendingPathComponent($0)
          } : [path]
        for file in files {
          guard let data = FileManager.default.contents(atPath: file) else { continue }
          target([UInt8](data))
          count += 1
        }
      }
      print("\(name): \(count) inputs replayed, none crashed")
    }
  }
#endif
