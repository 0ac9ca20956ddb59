// `motus bench io` on what it cannot time and when it is stopped: a device, a FIFO or standard
// input is refused unread (it filled the temporary folder, or never ended); a file past the
// input limit likewise; a full temporary folder says so with its path and TMPDIR; a child that
// fails is named as the user would type it; Ctrl-C and SIGTERM kill the running child and
// leave no scratch folder. Each run gets a temporary folder of its own (TMPDIR), so what it
// leaves is seen. SYNTHETIC recordings (MotusSimulation).

import Foundation
import MotusData
import MotusSimulation
import MotusTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

final class BenchIOCommandTests: TemporaryFolderTestCase {
  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// A fresh folder for TMPDIR.
  private func temporaryFolder() throws -> String {
    let made = path("tmp-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: false)
    return made
  }

  private func recording(subjects: Int = 2, seconds: Double = 20) throws -> String {
    var simulator = ActivitySimulator(seed: 5)
    var text = ""
    for subject in 1...subjects {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: seconds)
          .csv(includeHeader: text.isEmpty)
      }
    }
    return try write(text, "rec.csv")
  }

  func testDevicesFIFOsAndStandardInput_AreRefusedUnread() throws {
    let fifo = path("live.csv")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    for input in ["/dev/zero", fifo, "-"] {
      let temporary = try temporaryFolder()
      let run = try MotusRunner.run(
        ["bench", "io", input, "--runs", "1"], timeout: 60, environment: ["TMPDIR": temporary])
      XCTAssertFalse(run.timedOut, "\(input) was read without end")
      XCTAssertEqual(run.exitCode, 1, "\(input): \(run.standardError)")
      XCTAssertTrue(
        run.standardError.contains("it is not a regular file"), "\(input): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains("HINT: save the recording to a file first"))
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [], input)
    }
  }

  func testFileBeyondTheInputLimit_IsRefusedBeforeAnyCopy() throws {
    // A sparse file of 1 TiB: no disk used, larger than any memory-derived limit.
    let huge = path("huge.csv")
    XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
    try handle.truncate(atOffset: 1 << 40)
    try handle.close()
    let temporary = try temporaryFolder()
    let run = try MotusRunner.run(
      ["bench", "io", huge, "--runs", "1"], timeout: 60, environment: ["TMPDIR": temporary])
    XCTAssertFalse(run.timedOut, "the copy was not bounded")
    XCTAssertEqual(run.exitCode, 1, run.standardError)
    XCTAssertTrue(run.standardError.contains("huge.csv"), run.standardError)
    XCTAssertTrue(run.standardError.contains("the most one input may have"), run.standardError)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [])
  }

  func testFullTemporaryFolder_SaysSoWithThePathAndTMPDIR() throws {
    // A 256 KiB file system of its own (a mount namespace), far smaller than the copy.
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
      throw XCTSkip("needs unshare(1) to mount a small file system")
    }
    var generator = SplitMix64(seed: 24301)  // seeded: a failure replays
    var text = "timestamp,session,subject,label,x\n"
    for i in 0..<40_000 {
      text += "\(i),s,1,a,\(UInt64.random(in: 0...UInt64.max, using: &generator))\n"
    }
    let file = try write(text, "noisy.csv")
    let small = try temporaryFolder()
    let script =
      #"mount -t tmpfs -o size=256k tmpfs "$1" || exit 77; "#
      + #"TMPDIR="$1" exec "$2" bench io "$3" --runs 1"#
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = [
      "-m", "sh", "-c", script, "sh", small, MotusRunner.executableURL.path, file,
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    if process.terminationStatus == 77 || said.contains("unshare: ") {
      throw XCTSkip("cannot mount a file system here: \(said)")
    }
    XCTAssertEqual(process.terminationStatus, 1, said)
    XCTAssertTrue(said.contains("the temporary folder \(small) is full"), said)
    XCTAssertTrue(said.contains("TMPDIR=/path/to/folder motus bench io \(file)"), said)
    XCTAssertFalse(said.contains("NSCocoaErrorDomain"), said)
  }

  func testFailingChild_IsNamedAsTypedWithItsStatusAndAHint() throws {
    let file = try recording(subjects: 1, seconds: 10)
    let notAModel = try write("not a model", "m.motus")
    let temporary = try temporaryFolder()
    let run = try MotusRunner.run(
      ["bench", "io", file, "--runs", "1", "--model", notAModel], timeout: 120,
      environment: ["TMPDIR": temporary])
    XCTAssertEqual(run.exitCode, 1, run.standardError)
    XCTAssertTrue(
      run.standardError.contains(
        "`motus stream \(notAModel) \(file) --format csv` failed with exit status 1. "
          + "HINT: run it alone"), run.standardError)
    XCTAssertFalse(run.standardError.contains("/proc/self/exe"), run.standardError)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [])
  }

  func testSignals_KillTheRunningChildAndRemoveTheScratchFolder() throws {
    let file = try recording()
    for number in [SIGINT, SIGTERM] {
      let temporary = try temporaryFolder()
      let bench = try spawn(["bench", "io", file, "--runs", "100"], temporary: temporary)
      // A timed run is under way: its child is stopped, so it cannot end by itself.
      let child = try XCTUnwrap(waitForChild(of: bench), "no run started")
      kill(child, SIGSTOP)
      defer { kill(child, SIGKILL) }  // whatever the outcome, never leave it behind
      kill(bench, number)
      let status = try XCTUnwrap(reap(bench), "signal \(number): still running after a minute")
      XCTAssertEqual(status & 0x7F, number, "it dies of the signal (wait status \(status))")
      XCTAssertFalse(Self.isAlive(child), "signal \(number): the child \(child) is still there")
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [])
    }
  }

  /// Starts `motus arguments...` with TMPDIR set and its outputs to /dev/null (posix_spawn,
  /// waited for with `reap`, so that nothing else reaps it or its children).
  private func spawn(_ arguments: [String], temporary: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let executable = MotusRunner.executableURL.path
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary
    let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
    defer { envp.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard spawned == 0 else { throw XCTSkip("cannot start motus: error \(spawned)") }
    return pid
  }

  /// The wait status of `pid` once it ends, or nil (and `pid` killed) after a minute.
  private func reap(_ pid: pid_t) -> Int32? {
    let deadline = Date().addingTimeInterval(60)
    var status: Int32 = 0
    while Date() < deadline {
      if waitpid(pid, &status, WNOHANG) == pid { return status }
      usleep(20_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
    return nil
  }

  /// The first child process of `parent` that runs a timed command (past its exec: stopped
  /// before it, the child would hold its parent in posix_spawn), waited for up to a minute.
  private func waitForChild(of parent: pid_t) -> pid_t? {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
      for entry in entries {
        guard let pid = pid_t(entry), Self.stat(pid)?.parent == parent,
          let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
        else { continue }
        let words = command.split(separator: "\0")
        if words.count > 1 && words[1] != "bench" { return pid }
      }
      usleep(5_000)
    }
    return nil
  }

  /// The state letter and parent of `/proc/PID/stat` (the fields after the command's `)`).
  private static func stat(_ pid: pid_t) -> (state: Character, parent: pid_t)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else {
      return nil
    }
    return (state, parent)
  }

  /// Running or stopped; a zombie or a pid that is gone is not.
  private static func isAlive(_ pid: pid_t) -> Bool {
    guard let stat = stat(pid) else { return false }
    return stat.state != "Z" && stat.state != "X"
  }
}
