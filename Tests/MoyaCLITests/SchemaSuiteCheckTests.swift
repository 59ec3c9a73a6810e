import Foundation
import MoyaCore
import TestSupport
import XCTest

/// The official JSON Schema Test Suite's draft 2020-12 tests, run as a user runs a schema
/// check: each group a target, each test a sample file and a check `expect: { schema: … }`,
/// through `moya-cli check --stub immediate`. A check passes exactly when its test is valid.
/// Groups that need the suite's remote server (`localhost:1234`) are left out, and the two
/// whose `$ref` names the draft's metaschema, which moya-cli does not bundle: a spec's
/// references reach files beside it, and nothing on the network. So are the two whose whole
/// schema is `true` or `false`: in a check, `schema: true` means the target's schema.
final class SchemaSuiteCheckTests: XCTestCase {
    func testTheDraft2020_12SuitePassesThroughCheck() async throws {
        let suite = try Repository.shared("json-schema-test-suite", variable: "JSON_SCHEMA_TEST_SUITE")
        let folder = suite + "/tests/draft2020-12"
        let directory = NSTemporaryDirectory() + "moya-cli-suite-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        var spec = "service: suite\nbaseURL: http://127.0.0.1:9\ntargets:\n"
        var expected: [String: Bool] = [:]
        var groupCount = 0
        var left = 0
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
            .sorted()
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            guard case .array(let groups) = try JSONValue(parsing: Data(text.utf8)) else { continue }
            for group in groups {
                guard let schema = group["schema"], case .array(let tests)? = group["tests"] else { continue }
                let schemaText = schema.serialized(escapeSlashes: false)
                if schemaText.contains("localhost:1234")
                    || schemaText.contains(#""$ref":"https://json-schema.org/draft/2020-12/schema""#)
                    || schema == .bool(true) || schema == .bool(false)
                {
                    left += 1
                    continue
                }
                groupCount += 1
                let target = "g\(groupCount)"
                spec += "  \(target):\n    samples:\n"
                var checks = ""
                for (index, test) in tests.enumerated() {
                    guard let data = test["data"], case .bool(let valid)? = test["valid"] else { continue }
                    let name = "t\(index)"
                    try Data(data.serialized().utf8).write(
                        to: URL(fileURLWithPath: "\(directory)/data/\(target)-\(name).json"))
                    spec += "      \(name): { file: data/\(target)-\(name).json }\n"
                    checks += "      - { name: \(name), sample: \(name), expect: { schema: \(schemaText) } }\n"
                    expected["suite.\(target): \(name)"] = valid
                }
                spec += "    checks:\n" + checks
            }
        }
        try spec.write(toFile: directory + "/suite.yaml", atomically: true, encoding: .utf8)

        let (status, out, error) = await CommandTests.run(["check", directory, "--stub", "immediate"])
        XCTAssertTrue(status == 0 || status == 1, error)
        var seen = 0
        var wrong: [String] = []
        for line in out.split(separator: "\n") where line.hasPrefix("PASS  ") || line.hasPrefix("FAIL  ") {
            var name = String(line.dropFirst(6))
            if let timing = name.range(of: "  (", options: .backwards) { name = String(name[..<timing.lowerBound]) }
            guard let valid = expected[name] else { continue }
            seen += 1
            if line.hasPrefix("PASS  ") != valid { wrong.append(name + (valid ? " should pass" : " should fail")) }
        }
        XCTAssertEqual(seen, expected.count, "checks run; stderr: \(error.prefix(2_000))")
        XCTAssertEqual(wrong, [])
        print(
            "draft 2020-12 through check: \(seen - wrong.count) of \(expected.count) tests, \(groupCount) groups (\(left) left out)"
        )
    }
}
