import Foundation
import MoyaCLI
import MoyaCore
import MoyaRuntime
import TestSupport
import XCTest

/// `--record`: live responses from the in-process server written into a spec's samples, then
/// answered by the stub byte for byte; the rest of the file untouched, a second recording a
/// no-op, and no secret written in any encoding.
final class RecordTests: XCTestCase {
    var server: TestServer!
    var folder = ""

    override func setUpWithError() throws {
        server = try TestServer()
        folder = NSTemporaryDirectory() + "moya-cli-record-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) async -> (Int32, String, String) {
        var env = ["TEST_SERVER": server.baseURL]
        env.merge(environment) { $1 }
        return await CommandTests.run(arguments, environment: env)
    }

    /// Writes `text` to `name` in the scratch folder and returns its path.
    func write(_ text: String, to name: String) throws -> String {
        let file = folder + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    static let spec = """
        # Recorded from the test server.
        service: rec
        baseURL: ${TEST_SERVER}
        targets:
          user:
            path: /json   # compact JSON, which the stub writes back as it came
            sample: { json: { id: 0 } }

          # The server echoes the request as JSON with escaped slashes: kept as text.
          echo:
            method: POST
            params: { name: string }
            path: /echo
            task: { json: { name: "{name}" } }
          bytes:
            path: /bytes/300
          person:
            params: { id: int }
            path: /people/{id}
            samples:
              gone:
                status: 404
                schema: { type: object, required: [message] }

        """

    /// Each form of body: JSON, text, binary to a file, and a 404 into a named sample.
    func testARecordedSampleAnswersWithTheLiveBodyByteForByte() async throws {
        let file = try write(Self.spec, to: "rec.yaml")
        let calls: [(words: [String], stub: [String], status: Int32)] = [
            (["rec.user"], ["--stub", "immediate"], 0),
            (["rec.echo", "--name", "Ann {x} ${HOME}"], ["--stub", "immediate"], 0),
            (["rec.bytes"], ["--stub", "immediate"], 0),
            (["rec.person", "--id", "999", "--record", "gone"], ["--sample", "gone"], 4),
        ]
        for call in calls {
            let words = ["call"] + call.words + ["--specs", file]
            let recordWords = words.contains("--record") ? words : words + ["--record"]
            let (status, live, error) = await run(recordWords)
            XCTAssertEqual(status, call.status, error)
            XCTAssertTrue(error.contains("moya-cli: recorded targets."), error)
            let stubWords = words.filter { $0 != "--record" && $0 != "gone" } + call.stub
            let (stubStatus, stubbed, stubError) = await run(stubWords)
            XCTAssertEqual(stubStatus, call.status, stubError)
            XCTAssertEqual(Array(stubbed.utf8), Array(live.utf8), call.words.joined(separator: " "))
        }
        let port = URL(string: server.baseURL)?.port ?? 0
        XCTAssertEqual(
            read(file),
            """
            # Recorded from the test server.
            service: rec
            baseURL: ${TEST_SERVER}
            targets:
              user:
                path: /json   # compact JSON, which the stub writes back as it came
                sample:
                  status: 200
                  headers:
                    Content-Type: application/json
                  json:
                    id: 1
                    first_name: Harry
                    last_name: Potter
                    score: 9.5
                    admin: false
                    tags: []
                    friends: [ { id: 2, name: Ron }, { id: 3, name: Hermione } ]
                    a.b: dotted
                    house: null

              # The server echoes the request as JSON with escaped slashes: kept as text.
              echo:
                method: POST
                params: { name: string }
                path: /echo
                task: { json: { name: "{name}" } }
                sample:
                  status: 200
                  headers:
                    Content-Type: application/json
                  body: |-
                    {{"body":"{{\\"name\\":\\"Ann {{x}} $${{HOME}}\\"}}","headers":[["User-Agent","moya-cli\\/\(Version.current)"],\
            ["Accept","*\\/*"],["Content-Type","application\\/json"],["Accept-Encoding","gzip, deflate"],\
            ["Host","127.0.0.1:\(port)"],["Content-Length","26"]],"method":"POST","uri":"\\/echo"}}
              bytes:
                path: /bytes/300
                sample:
                  status: 200
                  file: rec.bytes.bin
              person:
                params: { id: int }
                path: /people/{id}
                samples:
                  gone:
                    status: 404
                    headers:
                      Content-Type: application/json
                    json: { message: no person 999 }
                    schema: { type: object, required: [message] }

            """)
        XCTAssertEqual(
            FileManager.default.contents(atPath: folder + "/rec.bytes.bin"), Data((0..<300).map { UInt8($0 % 251) }))

        // A second recording with no change leaves every file as it was.
        let before = read(file)
        for call in calls {
            let words = ["call"] + call.words + ["--specs", file]
            let (_, _, error) = await run(words.contains("--record") ? words : words + ["--record"])
            XCTAssertTrue(error.contains(" is unchanged\n"), error)
        }
        XCTAssertEqual(read(file), before)
        let (valid, said, problems) = await run(["validate", file])
        XCTAssertEqual(valid, 0, problems)
        XCTAssertEqual(said, "ok: 1 service, 4 targets\n")
    }
}

extension RecordTests {
    /// Each form a secret could be written in: raw, percent-encoded, JSON-escaped, base64.
    func forms(of secret: String) -> [String] {
        let percent = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
        let json = String(
            decoding: (try? JSONSerialization.data(withJSONObject: [secret], options: [])) ?? Data(), as: UTF8.self)
        return [secret, percent, json.dropFirst(2).dropLast(2).description, Data(secret.utf8).base64EncodedString()]
    }

    /// The server echoes every header, the query and the body: the bearer token, a declared
    /// secret header, a secret param, a `-H` Authorization and Cookie, and a login's token
    /// are none of them written.
    func testNoSecretIsRecordedInAnyEncoding() async throws {
        let file = try write(
            """
            service: secret
            baseURL: ${TEST_SERVER}
            auth: { bearer: "${TOKEN}" }
            headers:
              X-Api-Key: { value: "${KEY}", secret: true }
            targets:
              echo:
                method: POST
                params: { code: { type: string, secret: true } }
                path: /echo
                task:
                  parameters: { code: "{code}" }
                  encoding: queryString
              token:
                method: POST
                auth: none
                params: { user: string, password: { type: string, secret: true } }
                path: /token
                task: { json: { user: "{user}", password: "{password}" } }
              protected:
                path: /protected
                auth:
                  login: { call: token, params: { user: ann, password: "${PASSWORD}" }, token: $.access_token }

            """, to: "secret.yaml")
        let environment = ["TOKEN": "tok/en+1=x?", "KEY": "k3y&v@lue/2", "PASSWORD": "pw"]
        let (status, _, error) = await run(
            [
                "call", "secret.echo", "--code", "p1n#c0de%", "-H", "Authorization: Basic dXNlcjpzM2NyZXQ=",
                "-H", "Cookie: session=c00kieValue", "--record", "--specs", file,
            ], environment: environment)
        XCTAssertEqual(status, 0, error)
        let (loginStatus, _, loginError) = await run(
            ["call", "secret.token", "--user", "ann", "--password", "pw", "--record", "--specs", file],
            environment: environment)
        XCTAssertEqual(loginStatus, 0, loginError)
        let (protectedStatus, _, protectedError) = await run(
            ["call", "secret.protected", "--record", "--specs", file], environment: environment)
        XCTAssertEqual(protectedStatus, 0, protectedError)

        let written = read(file)
        for secret in ["tok/en+1=x?", "k3y&v@lue/2", "p1n#c0de%", "dXNlcjpzM2NyZXQ=", "c00kieValue"] {
            for form in forms(of: secret) {
                XCTAssertFalse(written.contains(form), "\(secret) is written as \(form)")
            }
        }
        // The login token, "t1" and "t2", is masked where the JSON holds it.
        XCTAssertTrue(written.contains(#"json: { access_token: "••••", expires_in: 3600 }"#), written)
        XCTAssertTrue(written.contains(#"json: { ok: true, token: "••••" }"#), written)
        XCTAssertTrue(written.contains(#"["Authorization","••••"],["Cookie","••••"]"#), written)
        XCTAssertTrue(written.contains(#""uri":"\/echo?code=••••"}"#), written)
        let (valid, _, problems) = await run(["validate", file], environment: environment)
        XCTAssertEqual(valid, 0, problems)
    }
}

extension RecordTests {
    /// `check --record`: each target check's response goes to the check's sample, the first
    /// for each; Location is kept, ETag and Set-Cookie are not; a 404 that fails the target's
    /// validation is not made the default sample. The diff is printed whole.
    func testCheckRecordsChecksResponsesAndShowsTheDiff() async throws {
        let file = try write(
            """
            service: people
            baseURL: ${TEST_SERVER}
            targets:
              create:
                method: POST
                path: /people
                task: { json: { first_name: Ann } }
                checks:
                  - expect: { status: 201 }
              missing:
                path: /people/999
                samples:
                  gone: { status: 410 }   # refreshed below
                checks:
                  - name: as a sample
                    sample: gone
                    expect: { status: 404 }
                  - name: plain
                    expect: { status: 404 }
            """, to: "people.yaml")
        let (status, out, error) = await run(["check", "--record", file])
        XCTAssertEqual(status, 0, out + error)
        XCTAssertEqual(
            error,
            """
            --- \(file)
            +++ \(file)
            @@ -7,6 +7,12 @@
                 task: { json: { first_name: Ann } }
                 checks:
                   - expect: { status: 201 }
            +    sample:
            +      status: 201
            +      headers:
            +        Content-Type: application/json
            +        Location: /people/1
            +      json: { first_name: Ann, id: 1 }
               missing:
                 path: /people/999
                 samples:
            moya-cli: recorded targets.create.sample in \(file)
            --- \(file)
            +++ \(file)
            @@ -16,7 +16,11 @@
               missing:
                 path: /people/999
                 samples:
            -      gone: { status: 410 }   # refreshed below
            +      gone:
            +        status: 404
            +        headers:
            +          Content-Type: application/json
            +        json: { message: no person 999 }   # refreshed below
                 checks:
                   - name: as a sample
                     sample: gone
            moya-cli: recorded targets.missing.samples.gone in \(file)

            """)

        // In CI nothing is recorded without --force; --record goes without --stub.
        let before = read(file)
        let (ci, _, ciError) = await run(["check", "--record", file], environment: ["CI": "true"])
        XCTAssertEqual(ci, 64)
        XCTAssertEqual(
            ciError,
            "moya-cli: error: --record changes the spec, and CI is set, so nothing is recorded; "
                + "add --force to record in CI\n")
        let (stubbed, _, _) = await run(["check", "--record", "--stub", "immediate", file])
        XCTAssertEqual(stubbed, 64)
        XCTAssertEqual(read(file), before)
        let (forced, _, forcedError) = await run(["check", "--record", "--force", file], environment: ["CI": "true"])
        XCTAssertEqual(forced, 0, forcedError)
    }

    /// A target written in flow style is refused at its place, and the file is left as it was.
    func testAFlowStyleTargetIsRefusedWhereItIsWritten() async throws {
        let text = """
            service: flow
            baseURL: ${TEST_SERVER}
            targets:
              user: { path: /json }

            """
        let file = try write(text, to: "flow.yaml")
        let (status, _, error) = await run(["call", "flow.user", "--record", "--specs", file])
        XCTAssertEqual(status, 65)
        XCTAssertTrue(
            error.hasSuffix(
                "moya-cli: error: \(file):4:9: error: targets.user: is written in flow style, { … }; --record edits "
                    + "block style: write it as a block\n"), error)
        XCTAssertEqual(read(file), text)
        let (named, _, namedError) = await run(["call", "flow.user", "--record", "x", "--sample", "x", "--specs", file])
        XCTAssertEqual(named, 64)
        XCTAssertEqual(
            namedError,
            "moya-cli: error: --record writes the live response into the spec, and cannot go with --sample\n")
    }
}

extension RecordTests {
    /// A response that breaks the target's schema is recorded, and each violation is said as
    /// a warning at the sample, as `validate` then reports it.
    func testARecordingThatBreaksItsSchemaIsSaid() async throws {
        let file = try write(
            """
            service: drift
            baseURL: ${TEST_SERVER}
            targets:
              user:
                path: /json
                schema: { type: object, required: [email] }

            """, to: "drift.yaml")
        let (status, _, error) = await run(["call", "drift.user", "--record", "--specs", file])
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(
            error.hasSuffix(
                "moya-cli: recorded targets.user.sample in \(file)\n"
                    + "\(file):8:7: warning: targets.user.sample: $: missing required property 'email'\n"), error)
        let (again, _, said) = await run(["call", "drift.user", "--record", "--specs", file])
        XCTAssertEqual(again, 0)
        XCTAssertEqual(
            said,
            "moya-cli: targets.user.sample in \(file) is unchanged\n"
                + "\(file):8:7: warning: targets.user.sample: $: missing required property 'email'\n")
    }
}

extension RecordTests {
    /// Text over 1 MiB goes to a file beside the spec, which a later recording rewrites only
    /// when its bytes change.
    func testALargeBodyGoesToAFile() async throws {
        let file = try write(
            """
            service: big
            baseURL: ${TEST_SERVER}
            targets:
              stream:
                params: { size: int }
                path: /stream/{size}

            """, to: "big.yaml")
        let body = folder + "/big.stream.bin"
        let (status, live, error) = await run(["call", "big.stream", "--size", "1100000", "--record", "--specs", file])
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(error.hasSuffix("moya-cli: recorded targets.stream.sample in \(file); the body is in \(body)\n"))
        XCTAssertEqual(FileManager.default.contents(atPath: body)?.count, 1_100_000)
        let (_, stubbed, _) = await run(["call", "big.stream", "--size", "1", "--stub", "immediate", "--specs", file])
        XCTAssertEqual(stubbed, live)
        let spec = read(file)
        let (_, _, again) = await run(["call", "big.stream", "--size", "1048577", "--record", "--specs", file])
        XCTAssertEqual(again, "moya-cli: recorded targets.stream.sample in \(file); the body in \(body) changed\n")
        XCTAssertEqual(read(file), spec)
        XCTAssertEqual(FileManager.default.contents(atPath: body)?.count, 1_048_577)
    }
}

extension RecordTests {
    /// A recording never writes through a link, nor over a read-only spec, and says so with
    /// exit 73; the files they name are untouched.
    func testARecordingNeverWritesThroughALinkNorOverAReadOnlySpec() async throws {
        let file = try write(Self.spec, to: "rec.yaml")
        let victim = try write("keep", to: "victim.txt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/rec.bytes.bin", withDestinationPath: victim)
        let (linked, _, linkError) = await run(["call", "rec.bytes", "--record", "--specs", file])
        XCTAssertEqual(linked, 73)
        XCTAssertEqual(
            linkError,
            "moya-cli: error: \(file): targets.bytes.sample: \(folder)/rec.bytes.bin is a symbolic link, which a "
                + "spec's file is never written through\n")
        XCTAssertEqual(read(victim), "keep")
        XCTAssertEqual(read(file), Self.spec)

        let locked = try write(Self.spec, to: "locked.yaml")
        XCTAssertEqual(chmod(locked, 0o444), 0)
        let (refused, _, refusal) = await run(["call", "rec.user", "--record", "--specs", locked])
        XCTAssertEqual(refused, 73)
        XCTAssertEqual(refusal, "moya-cli: error: \(locked) is read-only (444); nothing was recorded\n")
        XCTAssertEqual(read(locked), Self.spec)
    }

    /// Recordings into one spec from several processes at once take turns: every one is
    /// written.
    func testConcurrentRecordingsIntoOneSpecLoseNothing() async throws {
        let names = (0..<12).map { "t\($0)" }
        let file = try write(
            "service: many\nbaseURL: ${TEST_SERVER}\ntargets:\n"
                + names.map { "  \($0):\n    path: /echo/\($0)\n" }.joined(), to: "many.yaml")
        let environment = ["TEST_SERVER": server.baseURL]
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for name in names {
                group.addTask {
                    await CommandTests.run(
                        ["call", "many.\(name)", "--record", "--specs", file], environment: environment
                    ).0
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(statuses, Array(repeating: 0, count: names.count))
        let written = read(file)
        for name in names {
            XCTAssertTrue(written.contains("  \(name):\n    path: /echo/\(name)\n    sample:\n"), written)
        }
    }

    /// What a run saw is secret however it comes back: a secret the server echoes with JSON's
    /// `\u` escapes, a login's refresh and id tokens, a `Set-Cookie` value the body repeats,
    /// and a cookie a redirect set.
    func testSecretsSeenInTheRunAreNeverRecorded() async throws {
        let file = try write(
            """
            service: seen
            baseURL: ${TEST_SERVER}
            targets:
              ascii:
                method: POST
                headers:
                  X-Key: { value: "${KEY}", secret: true }
                path: /ascii/echo
              login:
                method: POST
                path: /oauth
              protected:
                path: /echo/protected
                auth:
                  login: { call: login, token: $.access_token }
              cookie:
                path: /cookie-echo
              redirected:
                path: /cookies/set
                task:
                  parameters: { sid: "{sid}" }
                  encoding: queryString
                params: { sid: { type: string, default: redirect-c00kie } }

            """, to: "seen.yaml")
        let environment = ["KEY": "grün-schlüssel-🔑"]
        for target in ["ascii", "login", "cookie", "redirected"] {
            let (status, _, error) = await run(
                ["call", "seen.\(target)", "--record", "--specs", file], environment: environment)
            XCTAssertEqual(status, 0, "\(target): \(error)")
        }
        let written = read(file)
        for secret in [
            "grün-schlüssel-🔑", "gr\\u00fcn", "r3fresh-t0ken-secret", "id-t0ken-secret", "acc3ss-t0ken",
            "c00kie-in-body",
        ] {
            XCTAssertFalse(written.contains(secret), "\(secret) is written:\n\(written)")
        }
        // The cookie the redirect set is the spec's own default too, so it is looked for in
        // the sample alone.
        XCTAssertTrue(written.contains(#"json: { cookie: "sid=••••" }"#), written)
        let (valid, _, problems) = await run(["validate", file], environment: environment)
        XCTAssertEqual(valid, 0, problems)
    }

    /// A body that ends in blank lines is recorded, and answers with the very bytes.
    func testABodyEndingInBlankLinesIsRecorded() async throws {
        let file = try write(
            "service: blank\nbaseURL: ${TEST_SERVER}\ntargets:\n  text:\n    path: /blank-lines\n\n  other:\n    path: /json\n",
            to: "blank.yaml")
        let (status, live, error) = await run(["call", "blank.text", "--record", "--specs", file])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(live, "first\nsecond\n\n\n")
        let (_, stubbed, _) = await run(["call", "blank.text", "--stub", "immediate", "--specs", file])
        XCTAssertEqual(stubbed, live)
    }
}
