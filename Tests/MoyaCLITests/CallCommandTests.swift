import Foundation
import MoyaCLI
import MoyaCore
import MoyaJSONPath
import MoyaRuntime
import TestSupport
import XCTest

/// `moya-cli call` end to end: the command line in, a real server on 127.0.0.1, and what the
/// server received, the output and the exit status out.
final class CallCommandTests: XCTestCase {
    var server: TestServer!
    let specs = CommandTests.root + "/Tests/Fixtures/calls"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    struct Outcome {
        var status: Int32
        var out: Data
        var error: String
        var text: String { String(decoding: out, as: UTF8.self) }

        /// The echo server's JSON view of the request it received.
        func echo(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: out) as? [String: Any], text, file: file, line: line)
        }
    }

    func call(_ arguments: [String], environment: [String: String] = [:]) async -> Outcome {
        let capture = CommandTests.Capture()
        var env = ["TEST_SERVER": server.baseURL]
        env.merge(environment) { $1 }
        let context = CommandContext(
            environment: Environment(env),
            writeOut: { capture.appendOut($0) },
            writeError: { capture.appendError($0) })
        let status = await MoyaCLI.run(["call"] + arguments + ["--specs", specs], context: context)
        return Outcome(status: status, out: capture.outBytes, error: capture.error)
    }

    func header(_ echo: [String: Any], _ name: String) -> String? {
        (echo["headers"] as? [[String]])?.first { $0[0].lowercased() == name.lowercased() }?[1]
    }

    func temporaryFile(_ contents: String) throws -> String {
        let path = NSTemporaryDirectory() + "moya-cli-\(UUID().uuidString).txt"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    // MARK: - Tasks

    func testPlainSendsServiceAndTargetHeaders() async throws {
        let outcome = await call(["calls.plain", "-H", "X-Extra: 1", "-H", "x-target: overridden"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        let echo = try outcome.echo()
        XCTAssertEqual(echo["method"] as? String, "GET")
        XCTAssertEqual(echo["uri"] as? String, "/echo/plain")
        XCTAssertEqual(header(echo, "X-Service"), "calls")
        XCTAssertEqual(header(echo, "X-Extra"), "1")
        XCTAssertEqual(header(echo, "X-Target"), "overridden", "-H wins, as Endpoint.adding does")
        XCTAssertEqual(echo["body"] as? String, "")
    }

    func testDataBodies() async throws {
        let data = try await call(["calls.data"]).echo()
        XCTAssertEqual(data["body"] as? String, "hello, world")
        XCTAssertEqual(header(data, "Content-Type"), "text/plain")
        let file = try await call(["calls.dataFile"]).echo()
        XCTAssertEqual(file["method"] as? String, "PUT")
        XCTAssertEqual(file["body"] as? String, "body from a file\n")
    }

    func testJSONBodyKeepsTypesAndLeavesOutAbsentOptionals() async throws {
        let echo = try await call(["calls.json", "--name", "Ann"]).echo()
        XCTAssertEqual(echo["body"] as? String, #"{"name":"Ann","tags":["a","b"]}"#)
        XCTAssertEqual(header(echo, "Content-Type"), "application/json")
        let typed = try await call(["calls.json", "name=Bo", "age=7"]).echo()
        XCTAssertEqual(typed["body"] as? String, #"{"name":"Bo","age":7,"tags":["a","b"]}"#)
    }

    func testAStringTagKeepsATypedParamAsText() async throws {
        // `!!str "{page}"` sends and answers "2" where "{page}" gives 2; an absent param is
        // left out either way.
        let live = try await call(["calls.echoed", "--page", "2"]).echo()
        XCTAssertEqual(live["body"] as? String, #"{"page":"2","count":2}"#)
        let stubbed = await call(["calls.echoed", "--page", "2", "--note", "5", "--stub", "immediate"])
        XCTAssertEqual(stubbed.status, 0, stubbed.error)
        XCTAssertEqual(stubbed.text, #"{"args":{"page":"2","note":"5"},"count":2}"#)
    }

    func testURLEncodingInTheQueryForGet() async throws {
        let echo = try await call(["calls.query", "--q", "a b&c", "--tags", "x", "--tags", "y", "--flag", "false"])
            .echo()
        XCTAssertEqual(echo["uri"] as? String, "/echo/query?flag=0&q=a%20b%26c&tags%5B%5D=x&tags%5B%5D=y")
        XCTAssertEqual(echo["body"] as? String, "")
    }

    func testURLEncodingInAFormBodyForPost() async throws {
        let echo = try await call(["calls.form", "--q", "1+1"]).echo()
        XCTAssertEqual(echo["uri"] as? String, "/echo/form")
        XCTAssertEqual(echo["body"] as? String, "b=2&q=1%2B1")
        XCTAssertEqual(header(echo, "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testQueryStringEncodingOptions() async throws {
        let echo = try await call(["calls.queryString"]).echo()
        XCTAssertEqual(echo["uri"] as? String, "/echo/qs?a=fran%C3%A7ais&z=a%20b")
        XCTAssertEqual(echo["body"] as? String, "")
    }

    func testJSONParameterEncodings() async throws {
        let compact = try await call(["calls.jsonParameters"]).echo()
        XCTAssertEqual(compact["method"] as? String, "PATCH")
        XCTAssertEqual(compact["body"] as? String, #"{"a":{"c":true},"b":[1,2]}"#)
        let pretty = try await call(["calls.prettyJSON"]).echo()
        XCTAssertEqual(pretty["body"] as? String, "{\n  \"a\" : 1\n}")
    }

    func testCompositeTasks() async throws {
        let data = try await call(["calls.compositeData"]).echo()
        XCTAssertEqual(data["uri"] as? String, "/echo/cd?x=1")
        XCTAssertEqual(data["body"] as? String, "raw")
        let parameters = try await call(["calls.compositeParameters"]).echo()
        XCTAssertEqual(parameters["uri"] as? String, "/echo/cp?z=1&a=2", "an ordered query keeps its order")
        XCTAssertEqual(parameters["body"] as? String, "body=1")
    }

    func testUploadStreamsTheFile() async throws {
        let path = try temporaryFile(String(repeating: "upload ", count: 20_000))
        let echo = try await call(["calls.upload", "--file", path]).echo()
        XCTAssertEqual((echo["body"] as? String)?.count, 140_000)
        XCTAssertEqual(header(echo, "Content-Length"), "140000")
        let missing = await call(["calls.upload", "--file", "/nonexistent/file"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.error, "moya-cli: error: param 'file': no file at /nonexistent/file\n")
    }

    func testMultipartWithQuery() async throws {
        let path = try temporaryFile("file contents")
        let echo = try await call(["calls.multipart", "--file", path]).echo()
        XCTAssertEqual(echo["uri"] as? String, "/echo/multipart?v=1")
        let contentType = try XCTUnwrap(header(echo, "Content-Type"))
        XCTAssertTrue(contentType.hasPrefix("multipart/form-data; boundary="), contentType)
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        XCTAssertEqual(
            echo["body"] as? String,
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"a.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nfile contents\r\n--\(boundary)--\r\n")
    }

    func testDownloadWritesTheDestinationAndNothingOnFailure() async throws {
        let directory = NSTemporaryDirectory() + "moya-cli-dl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let destination = directory + "/out.bin"
        let outcome = await call(["calls.download", "--to", destination])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        let written = try Data(contentsOf: URL(fileURLWithPath: destination))
        XCTAssertEqual(written.count, 100_000)
        XCTAssertEqual(written.prefix(3), Data([0, 1, 2]))

        let failed = await call(["calls.downloadMissing", "--to", directory + "/missing.bin"])
        XCTAssertEqual(failed.status, 4)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["out.bin"], "no partial file")
    }

    // MARK: - Validation, failures and exit codes

    func testStatusValidationExitCodes() async {
        for (code, expected) in [(200, Int32(0)), (301, 3), (404, 4), (503, 5)] {
            let outcome = await call(["calls.status", "--code", String(code)])
            XCTAssertEqual(outcome.status, expected, "status \(code)")
            if expected != 0 {
                XCTAssertEqual(
                    outcome.error,
                    "moya-cli: error: calls.status: status \(code) did not pass validation: successCodes (200-299)\n")
                XCTAssertEqual(outcome.text, "status \(code)", "the body still goes to stdout")
            }
        }
        let allowed = await call(["calls.statusAllowed", "--code", "404"])
        XCTAssertEqual(allowed.status, 0)
    }

    func testTimeoutExits2() async {
        let outcome = await call(["calls.slow"])
        XCTAssertEqual(outcome.status, 2, outcome.error)
        XCTAssertEqual(
            outcome.error,
            "moya-cli: error: calls.slow: no complete response from http://127.0.0.1:\(server.port)/slow/3000 within 0.3 s\n"
        )
        let flag = await call(["calls.slow", "--ms", "2000", "--timeout", "0.2"])
        XCTAssertEqual(flag.status, 2)
        let enough = await call(["calls.slow", "--ms", "10", "--timeout", "5"])
        XCTAssertEqual(enough.status, 0, enough.error)
    }

    func testRedirectsAreFollowedWithALimit() async throws {
        let followed = await call(["calls.redirect", "--n", "3"])
        XCTAssertEqual(followed.status, 0, followed.error)
        XCTAssertEqual(try followed.echo()["uri"] as? String, "/echo/redirected")
        let tooMany = await call(["calls.redirect", "--n", "12"])
        XCTAssertEqual(tooMany.status, 6, tooMany.error)
        let loop = await call(["calls.loop"])
        XCTAssertEqual(loop.status, 6, loop.error)
    }

    func testIncludeShowsEveryRedirectHop() async throws {
        let outcome = await call(["calls.redirect", "--n", "2", "-i"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        let head = outcome.text.components(separatedBy: "\n\n").dropLast().joined(separator: "\n\n")
        XCTAssertEqual(
            head,
            """
            HTTP/1.1 302 Found
            Content-Length: 0
            Location: /redirect/1

            HTTP/1.1 302 Found
            Content-Length: 0
            Location: /echo/redirected

            HTTP/1.1 200 OK
            Content-Length: \(outcome.text.split(separator: "\n").last?.utf8.count ?? 0)
            Content-Type: application/json
            """)
    }

    func testVerboseLogsEveryRedirectHop() async {
        let outcome = await call(["calls.redirect", "--n", "2", "-v"])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        let log = outcome.error.replacingOccurrences(of: #", \d+ ms\)"#, with: ", T ms)", options: .regularExpression)
            .replacingOccurrences(of: #"\(\d+ bytes"#, with: "(N bytes", options: .regularExpression)
        // Each hop's request with every header it went out with, the transport's too.
        let sent = """
              User-Agent: moya-cli/\(Version.current)
              Accept: */*
              X-Service: calls
              Accept-Encoding: gzip, deflate
              Host: 127.0.0.1:\(server.port)
            """
        XCTAssertEqual(
            log,
            """
            Request: GET \(server.baseURL)/redirect/2
            \(sent)
            Response: 302 (redirect)
              Content-Length: 0
              Location: /redirect/1
            Request: GET \(server.baseURL)/redirect/1
            \(sent)
            Response: 302 (redirect)
              Content-Length: 0
              Location: /echo/redirected
            Request: GET \(server.baseURL)/echo/redirected
            \(sent)
            Response: 200 (N bytes, T ms)
              Content-Length: \(outcome.out.count)
              Content-Type: application/json

            """)
    }

    func testNoFollowAndTheSpecReturnTheRedirect() async {
        for line in [["calls.redirect", "--n", "1", "--no-follow"], ["calls.stay"]] {
            let outcome = await call(line + ["-i"])
            XCTAssertEqual(outcome.status, 3, line.joined(separator: " "))
            XCTAssertEqual(outcome.text, "HTTP/1.1 302 Found\nContent-Length: 0\nLocation: /echo/redirected\n\n")
            XCTAssertTrue(outcome.error.contains("status 302 did not pass validation"), outcome.error)
        }
    }

    func testMaxRedirects() async {
        let limited = await call(["calls.redirect", "--n", "2", "--max-redirects", "1"])
        XCTAssertEqual(limited.status, 6)
        XCTAssertEqual(
            limited.error, "moya-cli: error: calls.redirect: more than 1 redirect (127.0.0.1:\(server.port))\n")
        let enough = await call(["calls.redirect", "--n", "2", "--max-redirects", "2"])
        XCTAssertEqual(enough.status, 0, enough.error)
        let bad = await call(["calls.redirect", "--n", "2", "--max-redirects", "-1"])
        XCTAssertEqual(bad.status, 64)
    }

    func testRedirectMethodsAndCredentials() async throws {
        for (code, method, body) in [
            ("301", "GET", ""), ("302", "GET", ""), ("303", "GET", ""), ("307", "POST", "payload"),
            ("308", "POST", "payload"),
        ] {
            let echo = try await call(["calls.moved", "--code", code]).echo()
            XCTAssertEqual(echo["uri"] as? String, "/echo/moved", code)
            XCTAssertEqual(echo["method"] as? String, method, code)
            XCTAssertEqual(echo["body"] as? String, body, code)
            XCTAssertEqual(header(echo, "Content-Type"), body.isEmpty ? nil : "text/plain", code)
        }
        // Another origin gets neither the token nor the cookie.
        let away = try await call(["calls.away"]).echo()
        XCTAssertEqual(away["uri"] as? String, "/echo/away")
        XCTAssertNil(header(away, "Authorization"))
        XCTAssertNil(header(away, "Cookie"))
        XCTAssertEqual(header(away, "User-Agent"), "moya-cli/\(Version.current)")
    }

    func testDroppedAndRefusedConnectionsExit1() async {
        let dropped = await call(["calls.drop"])
        XCTAssertEqual(dropped.status, 1, dropped.error)
        XCTAssertTrue(dropped.error.hasPrefix("moya-cli: error: calls.drop: "), dropped.error)
        let port = server.port
        server.stop()
        let refused = await call(["calls.plain"], environment: ["TEST_SERVER": "http://127.0.0.1:\(port)"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.error.contains("refused"), refused.error)
        XCTAssertEqual(refused.error.filter { $0 == "\n" }.count, 1, "one line on stderr")
    }

    // MARK: - Stubs

    func testStubsNeverTouchTheNetwork() async throws {
        server.stop()
        let immediate = await call(["calls.stubbed", "--id", "7", "--stub", "immediate"])
        XCTAssertEqual(immediate.status, 0, immediate.error)
        XCTAssertEqual(immediate.text, #"{"id":7}"#)
        let delayed = await call(["calls.stubbed", "--id", "7", "--stub", "delayed=0.05"])
        XCTAssertEqual(delayed.text, #"{"id":7}"#)
        let missing = await call(["calls.stubbed", "--id", "7", "--sample", "missing"])
        XCTAssertEqual(missing.status, 4)
        XCTAssertEqual(missing.text, "nope")
        let timeout = await call(["calls.stubbed", "--id", "7", "--sample", "slow"])
        XCTAssertEqual(timeout.status, 2)
        let unknown = await call(["calls.stubbed", "--id", "7", "--sample", "nosuch"])
        XCTAssertEqual(unknown.status, 64)
        let badStub = await call(["calls.stubbed", "--id", "7", "--stub", "sometimes"])
        XCTAssertEqual(badStub.status, 64)
    }

    func testACallAnsweredFromTheSampleRunsOnTheCallersActor() async {
        let writes = CommandTests.Capture()
        let logged = CommandTests.Capture()
        // -v logs while the request is made, so the log's writes show where the sending ran.
        let context = CommandContext(
            environment: Environment(["TEST_SERVER": server.baseURL]),
            writeOut: { _ in writes.appendOut(Array("\(QueueActor.isCurrent) ".utf8)) },
            writeError: { bytes in
                writes.appendError(bytes)
                logged.appendOut(Array("\(QueueActor.isCurrent) ".utf8))
            })
        let arguments = ["call", "calls.stubbed", "--id", "7", "--stub", "immediate", "-v", "--specs", specs]
        let status = await QueueActor().run { _ in await MoyaCLI.run(arguments, context: context) }
        XCTAssertEqual(status, 0, writes.error)
        XCTAssertFalse(writes.out.isEmpty)
        XCTAssertEqual(Set(writes.out.split(separator: " ")), ["true"], "the body is written from the caller's actor")
        XCTAssertFalse(logged.out.isEmpty)
        XCTAssertEqual(Set(logged.out.split(separator: " ")), ["true"], "the request is made on the caller's actor")
    }

    // MARK: - Params, headers and secrets

    func testParamErrorsAreUsageErrors() async {
        let bad = await call(["calls.stubbed", "--id", "seven", "--stub", "immediate"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.error, "moya-cli: error: param 'id' expects an int, got \"seven\"\n")
        let missing = await call(["calls.stubbed", "--stub", "immediate"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.error.contains("needs param 'id'"), missing.error)
        let unknown = await call(["calls.stubbed", "--idd", "1"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(
            unknown.error, "moya-cli: error: stubbed has no param or option '--idd'; did you mean --id?\n")
        let option = await call(["calls.stubbed", "--id", "1", "--timout", "3"])
        XCTAssertEqual(option.status, 64)
        XCTAssertEqual(
            option.error, "moya-cli: error: stubbed has no param or option '--timout'; did you mean --timeout?\n")
        let named = await call(["calls.stubbed", "idd=1"])
        XCTAssertEqual(named.error, "moya-cli: error: stubbed has no param 'idd'; did you mean 'id'?\n")
        let header = await call(["calls.plain", "-H", "Bad\r\nHeader: x"])
        XCTAssertEqual(header.status, 64)
        let injected = await call(["calls.secret", "--token", "t\r\nX-Injected: 1"])
        XCTAssertEqual(injected.status, 64, "a param cannot smuggle a header line")
        XCTAssertTrue(injected.error.contains("line break"), injected.error)
    }

    func testNameEqualsValueReachesAParamThatSharesAnOptionsName() async throws {
        let echo = try await call(["calls.collide", "timeout=5", "--timeout", "3", "--flag"]).echo()
        XCTAssertEqual(echo["uri"] as? String, "/echo/collide?f=true&t=5")
        let equals = try await call(["calls.collide", "timeout=7", "--flag=false"]).echo()
        XCTAssertEqual(equals["uri"] as? String, "/echo/collide?f=false&t=7")
        let stray = await call(["calls.collide", "timeout=7", "stray"])
        XCTAssertEqual(stray.status, 64)
        XCTAssertEqual(
            stray.error, "moya-cli: error: unexpected argument 'stray'; give params as --NAME VALUE or NAME=VALUE\n")
    }

    func testAuthIsSentAndRedactedInDryRuns() async throws {
        let sent = try await call(["calls.secret", "--token", "s3cr3t"]).echo()
        XCTAssertEqual(header(sent, "Authorization"), "Bearer s3cr3t")
        XCTAssertEqual(header(sent, "X-Token"), "s3cr3t")
        let basic = try await call(["calls.basic"]).echo()
        XCTAssertEqual(header(basic, "Authorization"), "Basic " + Data("harry:hedwig".utf8).base64EncodedString())

        let dry = await call(["calls.secret", "--token", "s3cr3t", "--dry-run"])
        XCTAssertEqual(dry.status, 0)
        XCTAssertFalse(dry.text.contains("s3cr3t"), dry.text)
        XCTAssertTrue(dry.text.contains("Authorization: ••••"), dry.text)
        XCTAssertTrue(dry.text.contains("X-Token: ••••"), dry.text)
        let shown = await call(["calls.secret", "--token", "s3cr3t", "--dry-run", "--show-secrets"])
        XCTAssertTrue(shown.text.contains("Authorization: Bearer s3cr3t"), shown.text)
    }

    func testVerboseLoggingGoesToStderrWithSecretsRedacted() async throws {
        let verbose = await call(["calls.secret", "--token", "s3cr3t", "-v"])
        XCTAssertEqual(verbose.status, 0, verbose.error)
        XCTAssertNotNil(try? verbose.echo(), "stdout still holds only the body")
        XCTAssertTrue(verbose.error.contains("Request: GET \(server.baseURL)/echo/secret"), verbose.error)
        XCTAssertTrue(verbose.error.contains("Authorization: ••••"), verbose.error)
        XCTAssertTrue(verbose.error.contains("X-Token: ••••"), verbose.error)
        XCTAssertTrue(verbose.error.contains("Response: 200 ("), verbose.error)
        XCTAssertFalse(verbose.error.contains("Response body"), "-v logs no bodies")
        XCTAssertFalse(verbose.error.contains("s3cr3t"), verbose.error)

        let bodies = await call(["calls.json", "--name", "Ann", "-vv", "--curl"])
        XCTAssertTrue(bodies.error.contains(#"Request body: {"name":"Ann","tags":["a","b"]}"#), bodies.error)
        XCTAssertTrue(bodies.error.contains("Response body: {"), bodies.error)
        XCTAssertTrue(bodies.error.contains("curl -X POST -H "), bodies.error)
        XCTAssertTrue(bodies.error.contains("'\(server.baseURL)/echo/json'"), bodies.error)

        let curl = await call(["calls.secret", "--token", "s3cr3t", "--curl"])
        XCTAssertTrue(curl.error.contains("-H 'Authorization: ••••'"), curl.error)
        XCTAssertFalse(curl.error.contains("Request: GET"), "--curl alone logs only the command")
        XCTAssertFalse(curl.error.contains("s3cr3t"), curl.error)
    }

    func testKeyPathPrintsOneValueOrExits7() async {
        let string = await call(["calls.stubbed", "--id", "7", "--stub", "immediate", "--key-path", "id"])
        XCTAssertEqual(string.text, "7\n")
        let live = await call(["calls.plain", "--key-path", "headers.0.0"])
        XCTAssertEqual(live.status, 0, live.error)
        XCTAssertFalse(live.text.contains("\""), "a string prints bare: \(live.text)")
        let object = await call(["calls.plain", "--key-path", "headers.0"])
        XCTAssertTrue(object.text.hasPrefix("["), object.text)
        let missing = await call(["calls.stubbed", "--id", "7", "--stub", "immediate", "--key-path", "nope"])
        XCTAssertEqual(missing.status, 7)
        XCTAssertEqual(missing.text, "")
        XCTAssertEqual(missing.error, "moya-cli: error: calls.stubbed: the response has no value at key path 'nope'\n")
        let notJSON = await call(["calls.status", "--code", "200", "--key-path", "a"])
        XCTAssertEqual(notJSON.status, 7)
    }

    func testKeyPathTakesAJSONPath() async {
        let string = await call(["calls.stubbed", "--id", "7", "--stub", "immediate", "--key-path", "$.id"])
        XCTAssertEqual(string.status, 0, string.error)
        XCTAssertEqual(string.text, "7\n")
        let live = await call(["calls.plain", "--key-path", "$.headers[*][0]"])
        XCTAssertEqual(live.status, 0, live.error)
        XCTAssertEqual(live.text, "User-Agent\nAccept\nX-Service\nX-Target\nAccept-Encoding\nHost\n")
        let quoted = await call(["calls.plain", "--key-path", "$['method']"])
        XCTAssertEqual(quoted.text, "GET\n")
        let missing = await call(["calls.stubbed", "--id", "7", "--stub", "immediate", "--key-path", "$.nope"])
        XCTAssertEqual(missing.status, 7)
        XCTAssertEqual(
            missing.error, "moya-cli: error: calls.stubbed: the response has no value at key path '$.nope'\n")
        let malformed = await call(["calls.stubbed", "--id", "7", "--stub", "immediate", "--key-path", "$.a["])
        XCTAssertEqual(malformed.status, 64)
        XCTAssertTrue(
            malformed.error.hasPrefix("moya-cli: error: --key-path '$.a[': at character 5: an unclosed '['\n"),
            malformed.error)
        // Two paths are refused, not one silently dropped.
        let twice = await call([
            "calls.stubbed", "--id", "7", "--stub", "immediate", "--key-path", "$.id", "--key-path", "$.name",
        ])
        XCTAssertEqual(twice.status, 64)
        XCTAssertTrue(
            twice.error.hasPrefix(
                "moya-cli: error: --key-path takes one path, and was given 2: a JSON path can join them, as "
                    + "$['a','b'] or $..name\n"),
            twice.error)
        // A header's name in shorthand gets the path that works.
        let header = await call(["calls.plain", "--key-path", "$.headers.Content-Type"])
        XCTAssertTrue(
            header.error.hasPrefix(
                "moya-cli: error: --key-path '$.headers.Content-Type': at character 18: unexpected '-Type'; a name "
                    + "with '-' needs brackets: write $.headers['Content-Type']\n"),
            header.error)
    }

    func testDefaultHeadersGoOutUnlessTheSpecOrHSetsThem() async throws {
        let plain = try await call(["calls.plain"]).echo()
        XCTAssertEqual(header(plain, "User-Agent"), "moya-cli/\(Version.current)")
        XCTAssertEqual(header(plain, "Accept"), "*/*")
        let overridden = try await call(["calls.plain", "-H", "User-Agent: mine/1", "-H", "accept: text/plain"]).echo()
        XCTAssertEqual(header(overridden, "User-Agent"), "mine/1")
        XCTAssertEqual(header(overridden, "Accept"), "text/plain")
        let sent = (overridden["headers"] as? [[String]])?.map { $0[0].lowercased() } ?? []
        XCTAssertEqual(sent.filter { $0 == "accept" || $0 == "user-agent" }.count, 2, "\(sent)")
        let fromSpec = try await call(["calls.accepting"]).echo()
        XCTAssertEqual(header(fromSpec, "Accept"), "application/vnd.api+json")
        XCTAssertEqual(header(fromSpec, "User-Agent"), "moya-cli/\(Version.current)")
    }

    func testAURLIsARequestWithNoSpec() async {
        let outcome = await call(["https://api.example.com/users", "--dry-run"])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.text, "GET https://api.example.com/users\nUser-Agent: moya-cli/0.1.0\nAccept: */*\n")
    }

    func testDryRunJSONIsOneObject() async throws {
        let outcome = await call(["calls.json", "--name", "Ann", "--dry-run", "--json"])
        XCTAssertEqual(outcome.status, 0)
        let object = try outcome.echo()
        XCTAssertEqual(object["method"] as? String, "POST")
        XCTAssertEqual(object["url"] as? String, server.baseURL + "/echo/json")
        XCTAssertEqual((object["headers"] as? [String: String])?["Content-Type"], "application/json")
        XCTAssertEqual(object["body"] as? String, #"{"name":"Ann","tags":["a","b"]}"#)
        XCTAssertNil(object["bodyBase64"])
        let path = try temporaryFile("x")
        let upload = try await call(["calls.upload", "--file", path, "--dry-run", "--json"]).echo()
        XCTAssertEqual(upload["bodyFile"] as? String, path)
    }

    func testACallCompilesOnlyItsTarget() async throws {
        let directory = try scratchDirectory("lazy-call")
        try """
        service: mixed
        baseURL: https://x.test
        targets:
          good: { path: /good, sample: fine }
          bad: { path: /bad, metod: GET }

        """.write(toFile: directory + "/mixed.yaml", atomically: true, encoding: .utf8)
        let (status, out, _) = await CommandTests.run([
            "call", "mixed.good", "--specs", directory, "--stub", "immediate",
        ])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, "fine")
        // The broken target, and validate, still see every problem.
        let (badStatus, _, badError) = await CommandTests.run([
            "call", "mixed.bad", "--specs", directory, "--stub", "immediate",
        ])
        XCTAssertEqual(badStatus, 65)
        XCTAssertTrue(
            badError.hasPrefix("\(directory)/mixed.yaml:5:22: error: targets.bad.metod: unknown key"), badError)
        let (validateStatus, _, _) = await CommandTests.run(["validate", directory])
        XCTAssertEqual(validateStatus, 65)
    }

    /// A call the spec stubs (`stub:`, no flag) starts no event-loop thread: neither the
    /// warm-up nor the session's. The delayed stub leaves time to list the process's threads,
    /// once `-v` has logged the request, which it does as the call is sent or stubbed.
    func testASpecsStubStartsNoTransportThreads() throws {
        let directory = try scratchDirectory("stubbed")
        for (name, stub) in [("offline", "{ delayed: 1 }"), ("online", "never")] {
            try
                "service: \(name)\nbaseURL: \(server.baseURL)\nstub: \(stub)\ntargets:\n  t: { path: /slow/1000, sample: s }\n"
                .write(toFile: "\(directory)/\(name).yaml", atomically: true, encoding: .utf8)
        }
        func threads(calling service: String) throws -> [String] {
            let (process, _, error) = try CommandTests.launch(
                ["call", "\(service).t", "--specs", directory, "-v"], server: server.baseURL)
            var said = ""
            while !said.contains("Request: GET") {
                let data = error.fileHandleForReading.availableData
                guard !data.isEmpty else { break }
                said += String(decoding: data, as: UTF8.self)
            }
            XCTAssertTrue(said.contains("Request: GET"), said)
            let tasks = "/proc/\(process.processIdentifier)/task"
            let names = try FileManager.default.contentsOfDirectory(atPath: tasks).map { task in
                (try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8)) ?? ""
            }
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            return names.filter { $0.hasPrefix("NIO-ELT") }
        }
        XCTAssertEqual(try threads(calling: "offline"), [])
        // The live call, waiting on its slow answer, shows what the check looks for.
        XCTAssertNotEqual(try threads(calling: "online"), [])
    }

    /// The headers go out in the order the spec declares them (service, environment, target),
    /// after the defaults, and `-H` after them; a later declaration of a name takes its place.
    func testHeadersGoOutInTheOrderTheSpecDeclares() async throws {
        let directory = try scratchDirectory("order")
        try """
        service: ordered
        baseURL: ${TEST_SERVER}
        headers: { Zulu: "1", Alpha: "2", Mike: "3" }
        environments:
          staging: { baseURL: "${TEST_SERVER}", headers: { Yankee: "4" } }
        targets:
          t:
            path: /echo/ordered
            headers: { Kilo: "5", Alpha: "6" }
        """.write(toFile: directory + "/ordered.yaml", atomically: true, encoding: .utf8)
        let sent = try await call(
            ["ordered.t", "--env", "staging", "--specs", directory, "-H", "Bravo: 7", "-H", "Mike: 8"]
        ).echo()
        XCTAssertEqual(
            (sent["headers"] as? [[String]])?.map { "\($0[0]): \($0[1])" },
            [
                "User-Agent: moya-cli/\(Version.current)", "Accept: */*", "Zulu: 1", "Mike: 8", "Yankee: 4", "Kilo: 5",
                "Alpha: 6", "Bravo: 7", "Accept-Encoding: gzip, deflate",
                "Host: \(server.baseURL.dropFirst("http://".count))",
            ])
    }

    /// Paths a spec gives are the spec file's: a check's and a flow step's file param, a
    /// declared default, and upload and download paths written in the task. So `check` passes
    /// from any working directory (the tests run from the package's). A path on the command
    /// line stays the working directory's.
    func testPathsInASpecAreRelativeToTheSpecFile() async throws {
        let directory = try scratchDirectory("relative")
        try "hello".write(toFile: directory + "/note.txt", atomically: true, encoding: .utf8)
        try """
        service: rel
        baseURL: ${TEST_SERVER}
        targets:
          upload:
            method: POST
            params: { file: file }
            path: /echo/upload
            task: { upload: "{file}" }
            checks:
              - params: { file: note.txt }
                expect: { json: { $.body: hello } }
          uploadDefault:
            method: POST
            params: { file: { type: file, default: note.txt } }
            path: /echo/upload
            task: { upload: "{file}" }
            checks:
              - expect: { json: { $.body: hello } }
          uploadFixed:
            method: POST
            path: /echo/upload
            task: { upload: note.txt }
            checks:
              - expect: { json: { $.body: hello } }
          save:
            path: /bytes/10
            task: { download: saved.bin }
        flows:
          send:
            steps:
              - call: upload
                params: { file: note.txt }
                expect: { json: { $.body: hello } }
        """.write(toFile: directory + "/rel.yaml", atomically: true, encoding: .utf8)
        let environment = ["TEST_SERVER": server.baseURL]
        let (status, out, error) = await CommandTests.run(["check", directory], environment: environment)
        XCTAssertEqual(status, 0, out + error)
        XCTAssertTrue(out.contains("5 passed, 0 failed, 0 skipped"), out)

        let saved = await call(["rel.save", "--specs", directory])
        XCTAssertEqual(saved.status, 0, saved.error)
        XCTAssertEqual(FileManager.default.contents(atPath: directory + "/saved.bin")?.count, 10)

        let fromTheCommandLine = await call(["rel.upload", "--file", "note.txt", "--specs", directory])
        XCTAssertEqual(fromTheCommandLine.status, 64)
        XCTAssertEqual(fromTheCommandLine.error, "moya-cli: error: param 'file': no file at note.txt\n")
    }

    /// A new directory for a test's specs, removed when the test ends.
    func scratchDirectory(_ name: String) throws -> String {
        let directory = NSTemporaryDirectory() + "\(name)-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }
}
