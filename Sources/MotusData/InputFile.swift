// Reads a whole input the same way for every command: regular files, pipes, FIFOs, process
// substitution (`<(cat f.csv)`, a /dev/fd path) and `-` (standard input). The stat size is a
// hint only, so a pipe is read to its end; a size limit stops a source that never ends
// (/dev/zero) before it fills memory.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-input reads and the names errors give them.
public enum InputFile {
  /// The path that means standard input.
  public static let standardInputPath = "-"

  /// How errors name `path`: `<stdin>` for `-`, else the path as given.
  public static func displayName(_ path: String) -> String {
    path == standardInputPath ? "<stdin>" : path
  }

  /// Why an empty path names nothing: what every message about one says.
  public static let emptyName = "the name is empty (an empty argument, or a variable not set)"

  /// What `path` is, following symbolic links; nil when it does not exist.
  public enum Kind: Sendable, Equatable {
    case regularFile, folder, stream, other
  }

  /// The kind of `path` (`-` is a stream).
  public static func kind(_ path: String) -> Kind? {
    if path == standardInputPath { return .stream }
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .regularFile
    case S_IFDIR: return .folder
    case S_IFIFO, S_IFCHR, S_IFSOCK: return .stream
    default: return .other
    }
  }

  /// The size of a regular file, or 0 for anything else (its size is not known up front).
  public static func sizeHint(_ path: String) -> Int {
    guard path != standardInputPath else { return 0 }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return 0 }
    return Int(info.st_size)
  }

  /// Every byte of `path` (`-` reads standard input).
  ///
  /// - Parameter limit: Most bytes accepted; a longer input is an error, not an allocation.
  /// - Throws: `InputFileError` naming the file, with the system's reason.
  public static func read(_ path: String, limit: Int = Limits.inputFileBytes) throws -> [UInt8] {
    let name = displayName(path)
    let (fd, info) = try openForReading(path)
    defer { if fd != 0 { close(fd) } }
    let regular = info.st_mode & S_IFMT == S_IFREG
    let size = regular ? Int(info.st_size) : 0
    if size > limit { throw InputFileError.tooLarge(file: name, limitBytes: limit) }

    // A regular file: one exact-size read, then a check that it did not grow meanwhile.
    var failure: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      count = 0
      guard let base = buffer.baseAddress else { return }
      while count < size {
        let n = systemRead(fd, base + count, size - count)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { failure = errno }
        if n <= 0 { break }
        count += n
      }
    }
    if failure != 0 { throw InputFileError.readFailed(file: name, reason: describe(failure)) }
    // Streams (and files that grew): chunks until the end, never more than `limit`.
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { throw InputFileError.readFailed(file: name, reason: lastError()) }
      if n == 0 { break }
      guard bytes.count + n <= limit else {
        throw InputFileError.tooLarge(file: name, limitBytes: limit)
      }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
  }

  /// Opens `path` for reading (`-` is standard input, descriptor 0, which the caller must not
  /// close) and checks what it is, so every reader refuses the same things: a folder, a disk
  /// (block device), and a file of the kernel's interfaces (/proc, /sys), whose stat size says
  /// nothing of what a read returns: such files read forever, fail (`/proc/self/mem`: EIO) or
  /// hold no data.
  ///
  /// - Returns: The open descriptor and its `fstat` information.
  /// - Throws: `InputFileError` naming the file, with the reason.
  public static func openForReading(_ path: String) throws -> (descriptor: Int32, info: stat) {
    let name = displayName(path)
    let fd: Int32
    if path == standardInputPath {
      fd = 0
    } else {
      guard !path.isEmpty else {
        throw InputFileError.cannotOpen(file: "''", reason: emptyName)
      }
      fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { throw InputFileError.cannotOpen(file: name, reason: lastError()) }
    }
    var info = stat()
    var refusal: InputFileError?
    if fstat(fd, &info) != 0 {
      refusal = .cannotOpen(file: name, reason: lastError())
    } else if info.st_mode & S_IFMT == S_IFDIR {
      refusal = .isFolder(file: name)
    } else if info.st_mode & S_IFMT == S_IFBLK {
      refusal = .notData(file: name, what: "a block device (a disk or partition)")
    } else if let interface = kernelInterface(fd) {
      refusal = .notData(file: name, what: "a file of the kernel's \(interface) interface")
    }
    if let refusal {
      if fd != 0 { close(fd) }
      throw refusal
    }
    return (fd, info)
  }

  /// The kernel interface (`/proc`, `/sys`...) whose file system holds the open file `fd`; nil
  /// for an ordinary file, pipe or device.
  private static func kernelInterface(_ fd: Int32) -> String? {
    #if os(Linux) && canImport(Glibc)
      // `struct statfs` begins with `f_type`, a word; the buffer is larger than the struct.
      guard let fstatfs = fileSystemStatus else { return nil }
      var buffer = [Int](repeating: 0, count: 64)
      let status = buffer.withUnsafeMutableBytes { bytes in
        bytes.baseAddress.map { fstatfs(fd, $0) } ?? -1
      }
      guard status == 0 else { return nil }
      // Magic numbers from linux/magic.h.
      switch UInt64(truncatingIfNeeded: buffer[0]) & 0xFFFF_FFFF {
      case 0x9FA0: return "/proc"
      case 0x6265_6572: return "/sys"
      case 0x6462_6720: return "debugfs"
      case 0x7472_6163: return "tracefs"
      case 0x7363_6673: return "securityfs"
      case 0x0027_E0EB, 0x6367_7270: return "cgroup"
      case 0x6265_6570: return "configfs"
      case 0xCAFE_4A11: return "bpf"
      case 0x6165_676C: return "pstore"
      case 0xDE5E_81E4: return "efivarfs"
      default: return nil
      }
    #else
      return nil
    #endif
  }

  #if os(Linux) && canImport(Glibc)
    /// `fstatfs` from <sys/vfs.h>, which the Glibc module does not declare.
    private static let fileSystemStatus = GlibcFunction.lookUp(
      "fstatfs", as: (@convention(c) (Int32, UnsafeMutableRawPointer) -> Int32).self)
  #endif

  /// `path` with every symbolic link and `..` resolved; nil when it does not exist.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  package static func lastError() -> String { describe(errno) }

  /// The system's text for an `errno` value.
  public static func describe(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}

// `read(2)` under a name that `InputFile.read` does not shadow.
@inline(__always)
package func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}

/// An input that cannot be read whole.
public enum InputFileError: Error, Equatable, CustomStringConvertible {
  case cannotOpen(file: String, reason: String)
  case isFolder(file: String)
  case readFailed(file: String, reason: String)
  case tooLarge(file: String, limitBytes: Int)
  /// Not a data file at all: `what` it is (a disk, a file of the kernel's /proc interface).
  case notData(file: String, what: String)

  public var file: String {
    switch self {
    case .cannotOpen(let f, _), .isFolder(let f), .readFailed(let f, _), .tooLarge(let f, _),
      .notData(let f, _):
      return f
    }
  }

  /// Why, without the file name (for errors that add their own context).
  public var reason: String {
    switch self {
    case .cannotOpen(_, let reason), .readFailed(_, let reason): return reason
    case .isFolder: return "it is a folder, not a file"
    case .notData(_, let what): return "it is \(what), not a data file"
    case .tooLarge(_, let limit):
      return "it holds more than \(LimitError.bytes(Double(limit))), the most one input may "
        + "have on this machine (three quarters of its memory); is it a data file?"
    }
  }

  public var description: String {
    "\(file): cannot read (\(reason)). HINT: check the path; `-` reads standard input."
  }
}
