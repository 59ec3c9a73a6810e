import Foundation
import MoyaCompiler
import MoyaCore
import MoyaGenerate
import MoyaOpenAPI
import MoyaSpec
import TestSupport
import XCTest

/// The Swift generator in-process, on specs compiled as `generate swift` compiles them (with
/// `${VAR}` kept as references): what it writes and what it warns of. The command's own
/// output, and the generated files compiled against Moya, are tested in MoyaCLITests.
final class SwiftGeneratorTests: XCTestCase {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "generate-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func generate(
        file: String, command: String = "moya-cli generate swift"
    ) throws -> (source: String, warnings: [String]) {
        let compiler = SpecCompiler(environment: .none)
        return SwiftGenerator(command: command).generate(try compiler.compile(file: file))
    }

    func write(_ text: String, as name: String = "spec.yaml") throws -> String {
        let file = directory + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// What generated code cannot carry is named, one warning each.
    func testRedirectsAndEnvironmentEnumValuesAreWarnedOf() throws {
        let file = try write(
            """
            service: gen
            baseURL: http://127.0.0.1:9
            followRedirects: false
            targets:
              search:
                params: { region: { enum: { eu: "${GEN_EU:-eu-1}", us: us-1 } } }
                path: /search/{region}

            """)
        let (source, warnings) = try generate(file: file)
        XCTAssertTrue(source.contains(#"case eu = "eu-1""#), source)
        XCTAssertEqual(
            warnings,
            [
                "search: followRedirects: false is not generated; Moya follows redirects as its Session does, so "
                    + "give the provider a Session that does not",
                "search: region's enum values that read the environment are the spec's defaults in the generated "
                    + "code; they are raw values, fixed when it is generated",
            ])
    }

    /// A login is not generated, and says so; the base URL reads its variable when the code runs.
    func testWhatASpecCannotSayInSwiftIsWarnedOf() throws {
        let (source, warnings) = try generate(file: Self.root + "/Tests/Fixtures/flows/login.yaml")
        XCTAssertEqual(warnings, ["protected: auth: login is not generated; send its token with an AccessTokenPlugin"])
        XCTAssertTrue(source.contains(#"URL(string: Self.environment("TEST_SERVER", or: ""))"#), source)
    }

    /// A variable at its default stays a reference to it, read when the code runs.
    func testADefaultedVariableIsReadWhenTheCodeRuns() throws {
        let (source, _) = try generate(file: Self.root + "/specs/myservice.yaml")
        XCTAssertTrue(source.contains(#"Self.environment("MYSERVICE_TOKEN", or: "demo-token")"#), source)
    }

    /// Finding 18: a line break in the spec's file name stays inside the header comment; the
    /// file parses with swiftc.
    func testAFileNameWithALineBreakStaysInTheComment() throws {
        let spec = try write(
            "service: evil\nbaseURL: https://api.example.com\ntargets:\n  a: { path: /a }\n",
            as: "evil\nfunc injected() {}\n.yaml")
        let (source, _) = try generate(file: spec, command: "moya-cli generate swift evil")
        XCTAssertTrue(
            source.hasPrefix("// Generated from evil func injected() {} .yaml by `moya-cli generate swift evil`.\n"),
            source)
        XCTAssertFalse(source.contains("\nfunc injected"), source)
        let file = directory + "/Evil.swift"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        try assertParses(file)
    }

    /// `swiftc -parse FILE` exits 0.
    func assertParses(_ file: String) throws {
        let (env, swiftc) = Launch.onPath("swiftc")
        let ran = try Launch.run(env, swiftc + ["-parse", file], environment: nil)
        XCTAssertEqual(ran.status, 0, "\(file): \(ran.error.prefix(2000))")
    }
}
