import XCTest

final class CommandLineTests: XCTestCase {
  func testVersion_PrintsVersion() throws {
    let run = try MotusRunner.run(["--version"])
    XCTAssertEqual(run.exitCode, 0)
    XCTAssertTrue(
      run.standardOutput.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil,
      "unexpected version output: \(run.standardOutput)")
  }

  func testHelp_ListsEverySubcommand() throws {
    let run = try MotusRunner.run(["--help"])
    XCTAssertEqual(run.exitCode, 0)
    for command in ["inspect", "features", "train", "bench"] {
      XCTAssertTrue(run.standardOutput.contains(command), "help does not mention \(command)")
    }
  }

  func testUnknownSubcommand_FailsWithUsage() throws {
    let run = try MotusRunner.run(["frobnicate"])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("Usage"), run.standardError)
  }
}
