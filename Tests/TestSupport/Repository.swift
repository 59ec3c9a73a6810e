import Foundation
import XCTest

/// Where the repository's files are, found from this file's path, so that tests read fixtures
/// and specs wherever the clone is.
public enum Repository {
    /// The repository's root.
    public static let root: String = {
        var path = #filePath
        for _ in 0..<3 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    /// `Tests/Fixtures`.
    public static let fixtures = root + "/Tests/Fixtures"
    /// The bundled specs.
    public static let specs = root + "/specs"

    /// Whether the tests run as on a machine with only README's prerequisites: every optional
    /// program and every data set outside the repository taken as absent, so that each skip
    /// path is taken. `.ci/run` runs the suite once so (`MOYA_TEST_OPTIONAL_ABSENT=1`), and it
    /// must pass: a skip thrown where XCTest counts it a failure (inside an assertion) fails it.
    public static var optionalAbsent: Bool {
        ProcessInfo.processInfo.environment["MOYA_TEST_OPTIONAL_ABSENT"] != nil
    }
}

extension Repository {
    /// The shared data folder `name` beside the repository (`../shared/NAME`), or the folder
    /// the environment variable `variable` names. Without it the test is skipped with a
    /// one-line message, or fails where CI sets MOYA_SHARED_REQUIRED, so that the data cannot
    /// go missing there unnoticed.
    public static func shared(_ name: String, variable: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let candidates = optionalAbsent ? [] : [environment[variable], root + "/../shared/" + name]
        if let found = candidates.compactMap({ $0 }).first(where: { FileManager.default.fileExists(atPath: $0) }) {
            return found
        }
        throw unavailable("../shared/\(name) is not there; set \(variable)")
    }

    /// Skips the test with a one-line message when one of `programs` is not on PATH (or every
    /// optional program is taken as absent), or fails where CI sets MOYA_SHARED_REQUIRED, since
    /// `.ci/run` installs them. Call it at the top of a test, never inside an assertion.
    public static func requirePrograms(_ programs: [String]) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let missing =
            optionalAbsent
            ? programs
            : programs.filter { program in
                !path.split(separator: ":").contains {
                    FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
                }
            }
        guard !missing.isEmpty else { return }
        throw unavailable("\(missing.joined(separator: ", ")) not installed; .ci/run installs them")
    }

    /// The skip for something optional that is missing; where CI requires it
    /// (MOYA_SHARED_REQUIRED), also a failure.
    public static func unavailable(_ message: String) -> XCTSkip {
        if ProcessInfo.processInfo.environment["MOYA_SHARED_REQUIRED"] != nil, !optionalAbsent {
            XCTFail(message)
            return XCTSkip("failed: " + message)
        }
        return XCTSkip(message)
    }
}
