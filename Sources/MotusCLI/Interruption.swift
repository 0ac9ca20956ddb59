// Ctrl-C and `kill`: every command removes its temporary output files before it dies, so an
// interrupted run leaves the earlier outputs as they were and no `.NAME.*.tmp` behind.
// `motus stream` instead finishes: the first SIGINT or SIGTERM ends the input, the open
// segment and the summary are written, and the process then dies of the same signal.
// `motus bench io` kills its running child, removes its scratch folder, then dies likewise.

import Foundation
import Motus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum Interruption {
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  // Set by the stream's handler; read by the line reader after a read fails with EINTR.
  nonisolated(unsafe) static let flag: UnsafeMutablePointer<Int32> = {
    let p = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    p.initialize(to: 0)
    return p
  }()

  /// For every command: a signal removes the temporary files, then kills as it would have.
  static func removeTemporaryFilesOnSignal() {
    TemporaryFiles.prepare()
    for number in signals {
      install(number, flags: 0) { received in
        TemporaryFiles.removeAllForSignal()
        signal(received, SIG_DFL)
        raise(received)
      }
    }
  }

  /// For `motus stream`: the first SIGINT/SIGTERM only sets `requested` (a blocked read
  /// returns, as the handler does not restart it); a second one kills.
  static func finishOnSignal() {
    _ = flag
    for number in [SIGINT, SIGTERM] {
      install(number, flags: Int32(bitPattern: UInt32(SA_RESETHAND))) { received in
        Interruption.flag.pointee = received
      }
    }
  }

  /// For `motus bench io`: SIGINT, SIGTERM and SIGHUP kill the running child and ask the
  /// benchmark to stop (`BenchmarkInterruption`); it reaps the child and removes its scratch
  /// folder as it unwinds, and the command then dies of the signal (`die(of:)`).
  static func stopBenchmarkOnSignal() {
    BenchmarkInterruption.prepare()
    for number in signals {
      install(number, flags: 0) { received in
        BenchmarkInterruption.stopForSignal(received)
      }
    }
  }

  /// Dies of signal `number`, as shells expect of an interrupted program, temporary outputs
  /// removed first.
  static func die(of number: Int32) -> Never {
    TemporaryFiles.removeAllForSignal()
    signal(number, SIG_DFL)
    raise(number)
    exit(128 + number)  // only if the signal is blocked
  }

  /// The signal that asked the stream to finish, or nil.
  static var requested: Int32? { flag.pointee == 0 ? nil : flag.pointee }

  /// After a graceful finish: die of the signal that asked for it, as shells expect.
  static func dieOfRequestedSignal() {
    guard let number = requested else { return }
    TemporaryFiles.removeAllForSignal()
    signal(number, SIG_DFL)
    raise(number)
  }

  /// After standard output's reader closed the pipe: die of SIGPIPE, quietly and non-zero,
  /// as a program writing to a closed pipe conventionally does.
  static func dieOfClosedPipe() -> Never {
    TemporaryFiles.removeAllForSignal()
    signal(SIGPIPE, SIG_DFL)
    raise(SIGPIPE)
    exit(128 + SIGPIPE)  // only if the signal is blocked
  }

  private static func install(
    _ number: Int32, flags: Int32, handler: @escaping @convention(c) (Int32) -> Void
  ) {
    var action = sigaction()
    #if canImport(Glibc)
      action.__sigaction_handler = .init(sa_handler: handler)
    #else
      action.__sigaction_u = .init(__sa_handler: handler)
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = flags  // no SA_RESTART: a blocked read returns EINTR
    sigaction(number, &action, nil)
  }
}
