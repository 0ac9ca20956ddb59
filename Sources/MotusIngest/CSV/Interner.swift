import Foundation
import MotusData
import MotusGzip

/// Maps byte strings to small integers, remembering the last one (rows repeat it).
struct Interner {
  private(set) var names: [String] = []
  private var ids: [String: Int32] = [:]
  private var lastBytes: [UInt8] = []
  private var lastID: Int32 = -1

  mutating func id(of name: String) -> Int32 {
    if let id = ids[name] { return id }
    let id = Int32(names.count)
    names.append(name)
    ids[name] = id
    return id
  }

  @inline(__always)
  mutating func id(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int32 {
    let length = end - start
    if lastID >= 0 && length == lastBytes.count {
      let same = lastBytes.withUnsafeBufferPointer { b -> Bool in
        guard let p = b.baseAddress else { return length == 0 }
        return memcmp(p, base + start, length) == 0
      }
      if same { return lastID }
    }
    let buffer = UnsafeBufferPointer(start: base + start, count: length)
    lastBytes = Array(buffer)
    lastID = id(of: String(decoding: buffer, as: UTF8.self))
    return lastID
  }
}
