// A server run from synchronous code (the command line): blocks until SIGINT or SIGTERM, then
// returns once every stream is closed and its files complete.

import Foundation

public enum ServeRun {
  /// Runs `server` to its end; throws `ServeError.cannotStart` when it could not bind.
  public static func blocking(
    _ server: LiveServer, onRunning: @escaping @Sendable (Int) -> Void
  ) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task {
      do {
        try await server.run(handlesSignals: true, onRunning: onRunning)
      } catch {
        failure.set("\(error)")
      }
      done.signal()
    }
    done.wait()
    if let reason = failure.get() { throw ServeError.cannotStart(reason) }
  }
}

private final class FailureBox: @unchecked Sendable {
  private let lock = NSLock()
  private var reason: String?
  func set(_ text: String) { lock.withLock { reason = text } }
  func get() -> String? { lock.withLock { reason } }
}
