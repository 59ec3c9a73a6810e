import MoyaCompiler
import MoyaCore
import MoyaSpec
import XCTest

/// `SpecCompiler.compile(file:target:)`, which `call` uses: only the called target (and its
/// login's) is compiled, and it is the very target a whole compile gives, marks included.
final class LazyCompileTests: XCTestCase {
    let compiler = SpecCompiler(environment: ["TEST_SERVER": "http://127.0.0.1:9", "API_PASSWORD": "pw"])

    func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "lazy-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Every target of every spec file under `directories`, compiled alone, equals the same
    /// target compiled with the whole file, and so does its service but for the other targets.
    func testEachTargetAloneIsTheTargetOfTheWholeFile() throws {
        let files = try SpecLibrary(
            searchPaths: [
                specsDirectory, fixturesDirectory + "/flows", fixturesDirectory + "/checks",
                fixturesDirectory + "/serve",
            ], compiler: compiler
        ).files()
        var compared = 0
        for file in files {
            let whole = try compiler.compile(file: file)
            for target in whole.targets {
                let alone = try compiler.compile(file: file, target: target.name)
                let logins = [whole.auth, target.auth].compactMap { auth -> String? in
                    if case .login(let login)? = auth, login.service == nil { return login.target }
                    return nil
                }
                XCTAssertEqual(Set(alone.targets.map(\.name)), Set([target.name] + logins), "\(file) \(target.name)")
                XCTAssertEqual(alone.flows.count, 0)
                XCTAssertEqual(
                    "\(try XCTUnwrap(alone.target(named: target.name)))", "\(target)", "\(file) \(target.name)")
                var expected = whole
                var actual = alone
                expected.targets = []
                expected.flows = []
                actual.targets = []
                XCTAssertEqual("\(actual)", "\(expected)", "\(file) \(target.name)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 30)
    }

    func testProblemsInOtherTargetsDoNotStopACall() throws {
        let file = try temporaryFile(
            """
            service: mixed
            baseURL: https://x.test
            targets:
              good:
                path: /good
                sample: fine
              # A comment between targets.
              bad:
                path: /bad
                metod: GET
            flows:
              f: { steps: [ { call: nowhere } ] }
            """)
        let service = try compiler.compile(file: file, target: "good")
        XCTAssertEqual(service.targets.map(\.name), ["good"])
        XCTAssertEqual(service.targets.first?.mark, Mark(line: 4, column: 3))

        // The called target's own problem is reported with every other, as validate reports them.
        XCTAssertThrowsError(try compiler.compile(file: file, target: "bad")) { error in
            XCTAssertEqual(
                (error as? SpecError)?.diagnostics.map(\.description),
                [
                    "\(file):10:5: error: targets.bad.metod: unknown key 'metod'; did you mean 'method'?",
                    "\(file):12:25: error: flows.f.steps[0].call: unknown target 'nowhere'",
                ])
        }
    }

    /// `--specs FILE` is cut to the called target as `--specs DIR` is: a broken other target
    /// does not stop the call, which it would in a whole compile; another service's file, or a
    /// broken one, falls back to reading every spec.
    func testASpecFileNamedAsASearchPathIsCompiledLazily() throws {
        let file = try temporaryFile(
            """
            service: mixed
            baseURL: https://x.test
            targets:
              good: { path: /good }
              bad: { path: /bad, metod: GET }
            """)
        let other = try temporaryFile("service: other\nbaseURL: https://y.test\ntargets:\n  t: { path: /t }\n")
        let library = SpecLibrary(searchPaths: [other, file], compiler: compiler)
        XCTAssertEqual(try library.service(named: "mixed", target: "good").targets.map(\.name), ["good"])
        XCTAssertEqual(try library.service(named: "other", target: "t").targets.map(\.name), ["t"])
        XCTAssertThrowsError(try library.service(named: "mixed", target: "bad"))
        XCTAssertThrowsError(try library.service(named: "mixed"))
    }

    func testALoginTargetComesAlong() throws {
        let file = try temporaryFile(
            """
            service: guarded
            baseURL: https://x.test
            auth:
              login: { call: signIn, token: $.token }
            targets:
              other: { path: /other }
              signIn:
                method: POST
                path: /token
                auth: none
              me: { path: /me }
            """)
        let service = try compiler.compile(file: file, target: "me")
        XCTAssertEqual(service.targets.map(\.name), ["signIn", "me"])
    }

    func testLayoutsTheOutlineDoesNotReadCompileWhole() throws {
        let layouts = [
            // Flow-style targets.
            "service: a\nbaseURL: https://x.test\ntargets: { one: { path: /1 }, two: { path: /2 } }\n",
            // An alias in the called target to an anchor in another.
            "service: a\nbaseURL: https://x.test\ntargets:\n  one:\n    path: /1\n    headers: &common { X-A: b }\n  two:\n    path: /2\n    headers: *common\n",
            // A quoted target name.
            "service: a\nbaseURL: https://x.test\ntargets:\n  \"one\": { path: /1 }\n  two: { path: /2 }\n",
        ]
        for text in layouts {
            let file = try temporaryFile(text)
            let whole = try compiler.compile(file: file)
            let lazy = try compiler.compile(file: file, target: "two")
            XCTAssertEqual(lazy.targets.map(\.name), whole.targets.map(\.name), text)
            XCTAssertEqual("\(lazy)", "\(whole)", text)
        }
        // A duplicate of the called target is the whole file's problem.
        let duplicate = try temporaryFile(
            "service: a\nbaseURL: https://x.test\ntargets:\n  one: { path: /1 }\n  one: { path: /2 }\n")
        XCTAssertThrowsError(try compiler.compile(file: duplicate, target: "one"))
    }

    /// The outline passes a target's content sixteen bytes at a time: with the targets at two
    /// and at four spaces, blank and comment lines between and inside them, lines of every
    /// length about a chunk's edge, CRLF endings and a last line with no newline, each target
    /// alone is the target of the whole file, marks and all.
    func testEveryLineLengthAndIndentGivesTheSameTargets() throws {
        var compared = 0
        for indent in [2, 4] {
            for ending in ["\n", "\r\n"] {
                let pad = String(repeating: " ", count: indent)
                var lines = ["service: a", "baseURL: https://x.test", "targets:"]
                for index in 0..<40 {
                    lines.append("\(pad)t\(index):")
                    lines.append("\(pad)\(pad)path: /\(String(repeating: "p", count: index % 19))")
                    if index % 3 == 0 { lines.append("") }
                    if index % 4 == 1 { lines.append("\(pad)# a comment at the targets' indent") }
                    if index % 5 == 2 { lines.append(" # a comment nearer the margin") }
                    lines.append("\(pad)\(pad)headers:")
                    lines.append("\(pad)\(pad)\(pad)X-A: v\(String(repeating: "v", count: (index * 7) % 23))")
                    if index % 6 == 5 {
                        lines.append("\(pad)\(pad)summary: \(String(repeating: "s", count: 15 + index))")
                    }
                }
                let text = lines.joined(separator: ending)
                let file = try temporaryFile(text)
                let whole = try compiler.compile(file: file)
                XCTAssertEqual(whole.targets.count, 40)
                for target in whole.targets {
                    let alone = try compiler.compile(file: file, target: target.name)
                    XCTAssertEqual(alone.targets.map(\.name), [target.name], "\(indent) \(target.name)")
                    XCTAssertEqual(
                        "\(try XCTUnwrap(alone.target(named: target.name)))", "\(target)", "\(indent) \(target.name)")
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 160)
    }

    /// A large spec (256 KiB and more, which was once mapped): its targets alone are still
    /// its targets, first, middle and last.
    func testALargeSpecGivesTheSameTargets() throws {
        var text = "service: big\nbaseURL: https://x.test\ntargets:\n"
        for index in 0..<3000 {
            text += "  t\(index):\n    path: /items/{id}\n    params: { id: int }\n"
            text += "    headers: { X-Index: \"\(index)\" }\n    sample: { json: { id: \"{id}\", n: \(index) } }\n"
        }
        text += "flows:\n  f:\n    steps:\n      - call: t1\n        params: { id: 1 }\n"
        XCTAssertGreaterThan(text.utf8.count, 256 << 10)
        let file = try temporaryFile(text)
        let whole = try compiler.compile(file: file)
        for name in ["t0", "t1500", "t2999"] {
            let alone = try compiler.compile(file: file, target: name)
            XCTAssertEqual(alone.targets.map(\.name), [name])
            XCTAssertEqual("\(try XCTUnwrap(alone.target(named: name)))", "\(try XCTUnwrap(whole.target(named: name)))")
        }
    }
}
