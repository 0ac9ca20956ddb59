// An input read ahead on a thread of its own: while the caller works on the text it has, the
// next bytes are read (for gzip, inflated) into a ring of a fixed size, so inflating overlaps
// parsing instead of adding to it. The ring is the only memory added. The thread is stopped
// and joined when the reader is released, whatever the caller was doing (an error it threw
// mid-file included), and it blocks the process's signals, so a signal interrupts the
// caller's wait as it would have interrupted the caller's own read.

import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The text of an `InputReader`, read into a ring on a thread of its own.
public final class InputReadAhead {
  /// The path as given (`<stdin>` for `-`), as errors name it.
  public let name: String
  /// Bytes of text handed out.
  public private(set) var bytesRead = 0
  private let ring: ReadAheadRing
  /// Threads started and not yet joined, in the whole process (tests look at it).
  public static var runningThreads: Int { countRunning(0) }
  nonisolated(unsafe) private static var running = 0
  nonisolated(unsafe) private static let runningLock: UnsafeMutablePointer<pthread_mutex_t> = {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
    return lock
  }()

  @discardableResult
  private static func countRunning(_ change: Int) -> Int {
    pthread_mutex_lock(runningLock)
    defer { pthread_mutex_unlock(runningLock) }
    running += change
    return running
  }
  private var thread = pthread_t()
  private var started = false

  /// Starts reading `reader` into a ring of `capacity` bytes. From then on the reader is the
  /// thread's: read only through this object.
  ///
  /// - Returns: nil when no thread can be started (read `reader` directly then).
  public init?(_ reader: InputReader, capacity: Int) {
    precondition(capacity > 0, "a ring of \(capacity) bytes")
    name = reader.name
    ring = ReadAheadRing(reader: reader, capacity: capacity)
    // The thread inherits the signal mask it is created with: all blocked, so that a signal
    // reaches the thread that waits for the text, whose wait it then interrupts.
    var all = sigset_t()
    var previous = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_SETMASK, &all, &previous)
    let context = Unmanaged.passRetained(ring)
    let status = pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        Unmanaged<ReadAheadRing>.fromOpaque(raw).takeRetainedValue().produceWhenTold()
        return nil
      }, context.toOpaque())
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    guard status == 0 else {
      context.release()
      return nil
    }
    started = true
    Self.countRunning(1)
    // The first read here, before the thread may read: zlib allocates its state then, on this
    // thread. A thread that allocates gets a malloc arena of its own, megabytes resident.
    ring.startProducing(firstReadingHere: 1 << 16)
  }

  deinit {
    // A failed init (no thread) has read nothing: the reader is the caller's again.
    guard started else { return }
    ring.stop()
    pthread_join(thread, nil)
    Self.countRunning(-1)
  }

  /// Reads up to `count` bytes of text into `buffer`, as `InputReader.read` does.
  ///
  /// - Returns: The bytes written, 0 at the end of the input, nil when a signal interrupted
  ///   the wait for text before any arrived (call again, or stop).
  /// - Throws: What `InputReader.read` threw, once the text before it has been handed out.
  public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int? {
    precondition(count > 0, "a read of \(count) bytes")
    guard let n = try ring.take(into: buffer, count: count) else { return nil }
    bytesRead += n
    return n
  }
}

/// The ring and the state both threads share; every field but the bytes is under `lock`.
private final class ReadAheadRing {
  private let reader: InputReader
  private let bytes: UnsafeMutablePointer<UInt8>
  private let capacity: Int
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  /// Posted when text, the end or an error is there to take. A semaphore rather than a
  /// condition variable: its wait returns EINTR when a signal is handled.
  private let filled = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
  /// Posted when room was made, or the reading is to stop.
  private let emptied = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
  /// Bytes written into the ring and taken out of it since the start.
  private var produced = 0
  private var consumed = 0
  private var ended = false
  private var failure: (any Error)?
  private var stopped = false

  init(reader: InputReader, capacity: Int) {
    self.reader = reader
    self.capacity = capacity
    bytes = .allocate(capacity: capacity)
    pthread_mutex_init(lock, nil)
    sem_init(filled, 0, 0)
    sem_init(emptied, 0, 0)
  }

  deinit {
    sem_destroy(filled)
    sem_destroy(emptied)
    pthread_mutex_destroy(lock)
    filled.deallocate()
    emptied.deallocate()
    lock.deallocate()
    bytes.deallocate()
  }

  private func locked<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return try body()
  }

  enum Step {
    case filled, full, over
  }

  /// Reads once into the free part of the ring, at most `most` bytes, as many as are free
  /// in one span: `over` once the input ended, a read failed or `stop` was called.
  func step(most: Int = .max) -> Step {
    let span: (start: Int, count: Int)? = locked {
      if stopped || ended || failure != nil { return (0, 0) }
      let free = capacity - (produced - consumed)
      guard free > 0 else { return nil }
      let start = produced % capacity
      return (start, min(free, capacity - start, most))
    }
    guard let span else { return .full }
    if span.count == 0 { return .over }
    let n: Int?
    do {
      n = try reader.read(into: bytes + span.start, count: span.count)
    } catch {
      locked { failure = error }
      sem_post(filled)
      return .over
    }
    // nil: a signal interrupted a read (none reaches the thread); read again.
    guard let n else { return .filled }
    locked {
      if n == 0 { ended = true } else { produced += n }
    }
    sem_post(filled)
    return n == 0 ? .over : .filled
  }

  /// Reads once here, at most `most` bytes, then lets the thread go on.
  func startProducing(firstReadingHere most: Int) {
    _ = step(most: most)
    sem_post(emptied)
  }

  /// The thread's work: once `startProducing` lets it, steps until the reading is over,
  /// waiting for room when the ring is full.
  func produceWhenTold() {
    wait(emptied)
    while true {
      switch step() {
      case .filled: continue
      case .full: wait(emptied)
      case .over: return
      }
    }
  }

  /// Copies text out of the ring, waiting for some; nil when a signal interrupted the wait.
  func take(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int? {
    while true {
      // The bytes in [consumed, produced) are the consumer's until `consumed` moves past them.
      let span: (start: Int, count: Int)? = try locked {
        let held = produced - consumed
        if held > 0 {
          let start = consumed % capacity
          return (start, min(count, held, capacity - start))
        }
        if let failure { throw failure }
        return ended ? (0, 0) : nil
      }
      guard let span else {
        guard wait(filled, interruptible: true) else { return nil }
        continue
      }
      if span.count == 0 { return 0 }
      buffer.copyMemory(from: bytes + span.start, byteCount: span.count)
      locked { consumed += span.count }
      sem_post(emptied)
      return span.count
    }
  }

  /// Asks the thread to stop at its next step; it is waiting for room or reading one span.
  func stop() {
    locked { stopped = true }
    sem_post(emptied)
  }

  /// Waits for a post; false when `interruptible` and a signal's handler ran meanwhile.
  @discardableResult
  private func wait(_ semaphore: UnsafeMutablePointer<sem_t>, interruptible: Bool = false)
    -> Bool
  {
    while sem_wait(semaphore) != 0 {
      if interruptible && errno == EINTR { return false }
    }
    return true
  }
}
