import Foundation
import MotusData

/// Temporary files that must not outlive the process: removed at exit and, through
/// `removeAllForSignal()`, from a SIGINT or SIGTERM handler.
public enum TemporaryFiles {
  static let capacity = 64
  // C strings in fixed slots: a signal handler may read them without allocating or locking.
  nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    slots.initialize(repeating: nil, count: capacity)
    return slots
  }()
  static let lock = NSLock()
  nonisolated(unsafe) static var atExitInstalled = false

  /// Remembers `path` for removal; returns its slot (-1 when all slots are taken, in which
  /// case it is still removed on error and at deinit, only not by a signal).
  static func register(_ path: String) -> Int {
    lock.lock()
    defer { lock.unlock() }
    if !atExitInstalled {
      atExitInstalled = true
      _ = slots
      atexit { TemporaryFiles.removeAllForSignal() }
    }
    for i in 0..<capacity where slots[i] == nil {
      slots[i] = strdup(path)
      return i
    }
    return -1
  }

  static func unregister(_ slot: Int) {
    guard slot >= 0 else { return }
    lock.lock()
    defer { lock.unlock() }
    let p = slots[slot]
    slots[slot] = nil
    free(p)
  }

  /// Unlinks every registered temporary file. Async-signal-safe: no allocation, no lock.
  public static func removeAllForSignal() {
    for i in 0..<capacity {
      if let p = slots[i] { unlink(p) }
    }
  }

  /// Sets up the slots, so that a signal handler never has to.
  public static func prepare() { _ = slots }

  /// Paths currently registered (for tests).
  public static var registered: [String] {
    lock.lock()
    defer { lock.unlock() }
    return (0..<capacity).compactMap { slots[$0].map { String(cString: $0) } }
  }
}
